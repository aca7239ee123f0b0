/**
 * The real dev transcripts of every set (test/fixtures/transcripts/set1, set2), their manifests and
 * their probes. File names are unique across the sets, so a file name is enough to find one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TRANSCRIPT_FOLDERS, TRANSCRIPTS_FOLDER } from '../support/repository';
import type { ImportResult } from '../../../src/cli/import/importTypes';
import type { Message } from '../../../src/engine/types';

export { TRANSCRIPTS_FOLDER };

export interface ManifestEntry {
  readonly file: string;
  /** The folder of the set the file belongs to (added when the manifest is read). */
  readonly folder: string;
  readonly format: string;
  readonly tool_calls: number;
  readonly assistant_api_messages?: number;
  readonly native_compact_summary_line?: number;
  readonly sessions?: readonly { readonly instance_id: string; readonly tool_calls: number }[];
}

export interface Probe {
  readonly file: string;
  readonly probe: string;
  readonly kind: string;
}

/** The manifest entries of every set, in set order. */
export function readManifest(): ManifestEntry[] {
  return TRANSCRIPT_FOLDERS.flatMap((folder) =>
    (JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as Omit<ManifestEntry, 'folder'>[]).map((entry) => ({
      ...entry,
      folder,
    })),
  );
}

/** The probes of every set. */
export function readProbes(): Probe[] {
  return TRANSCRIPT_FOLDERS.flatMap((folder) => JSON.parse(fs.readFileSync(path.join(folder, 'probes.dev.json'), 'utf8')) as Probe[]);
}

/** Where a transcript of any set is; throws when no set has it. */
export function transcriptPath(file: string): string {
  const folder = TRANSCRIPT_FOLDERS.find((candidate) => fs.existsSync(path.join(candidate, file)));
  if (folder === undefined) throw new Error(`${file} is in none of ${TRANSCRIPT_FOLDERS.join(', ')}`);
  return path.join(folder, file);
}

export function readTranscript(file: string): string {
  return fs.readFileSync(transcriptPath(file), 'utf8');
}

/** Every string inside a tool input, so a probe with quotes is found as the model saw it. */
function stringLeaves(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) value.forEach((item) => stringLeaves(item, into));
  else if (typeof value === 'object' && value !== null) Object.values(value).forEach((item) => stringLeaves(item, into));
}

/** The model-visible text of messages: text blocks, tool inputs (as JSON and as string leaves), result content. */
export function visibleTexts(messages: readonly Message[]): string[] {
  const texts: string[] = [];
  for (const msg of messages) {
    for (const block of msg.blocks) {
      if (block.type === 'text') texts.push(block.text);
      else if (block.type === 'toolResult') texts.push(block.content);
      else {
        texts.push(JSON.stringify(block.input));
        stringLeaves(block.input, texts);
      }
    }
  }
  return texts;
}

export function allMessages(result: ImportResult): Message[] {
  return result.sessions.flatMap((session) => session.messages);
}
