/**
 * The real dev transcripts (test/fixtures/transcripts/set1), their manifest and their probes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TRANSCRIPTS_FOLDER } from '../support/repository';
import type { ImportResult } from '../../../src/cli/import/importTypes';
import type { Message } from '../../../src/engine/types';

export { TRANSCRIPTS_FOLDER };

export interface ManifestEntry {
  readonly file: string;
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

export function readManifest(): ManifestEntry[] {
  return JSON.parse(fs.readFileSync(path.join(TRANSCRIPTS_FOLDER, 'manifest.json'), 'utf8')) as ManifestEntry[];
}

export function readProbes(): Probe[] {
  return JSON.parse(fs.readFileSync(path.join(TRANSCRIPTS_FOLDER, 'probes.dev.json'), 'utf8')) as Probe[];
}

export function readTranscript(file: string): string {
  return fs.readFileSync(path.join(TRANSCRIPTS_FOLDER, file), 'utf8');
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
