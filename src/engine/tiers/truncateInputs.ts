/**
 * Tier 2: old write/edit tool calls whose content is already on disk give up their copy of the
 * content (design §3.3). Only verified content goes: the file must exist and
 * hold what was written. The most recent messages are never touched.
 */
import type { TruncationRecord } from '../model/truncationRecord';
import type { WorkspaceFiles } from '../ports';
import { PATH_KEYS } from '../toolInputKeys';
import type { Message, ToolCallBlock } from '../types';
import { formatCount } from '../text/numbers';

/** Keys holding a whole file's new content. */
const WHOLE_CONTENT_KEYS = ['content', 'contents', 'file_text', 'fileText', 'code', 'text'];
/** Keys holding a fragment that an edit put into the file. */
const FRAGMENT_KEYS = ['new_string', 'newString', 'new_str', 'newText', 'new_text', 'insert_text', 'replacement'];

/** Inputs smaller than this are not worth a reference (under 200 tokens is compact already). */
export const TRUNCATE_MIN_INPUT_TOKENS = 200;

export interface PersistedInput {
  readonly key: string;
  readonly path: string;
  readonly value: string;
  readonly whole: boolean;
}

/** The content field of a write/edit call, when it has one. */
export function persistableInput(call: ToolCallBlock): PersistedInput | undefined {
  const input = call.input;
  const pathKey = PATH_KEYS.find((k) => typeof input[k] === 'string' && (input[k] as string).length > 0);
  if (!pathKey) return undefined;
  const path = input[pathKey] as string;
  for (const key of WHOLE_CONTENT_KEYS) if (typeof input[key] === 'string') return { key, path, value: input[key] as string, whole: true };
  for (const key of FRAGMENT_KEYS) if (typeof input[key] === 'string') return { key, path, value: input[key] as string, whole: false };
  return undefined;
}

function normalize(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\s+$/, '');
}

/** A file's text as it is compared with what was written, undefined when there is no such file. */
type DiskText = (path: string) => Promise<string | undefined>;

/**
 * Each file read and normalized once, however many calls wrote to it: a pass looks at every old
 * write again, and a file a long session edits over and over is compared once per edit.
 */
function diskTexts(files: WorkspaceFiles): DiskText {
  const known = new Map<string, Promise<string | undefined>>();
  return (path) => {
    let text = known.get(path);
    if (text === undefined) {
      text = files.readText(path).then((t) => (t === undefined ? undefined : normalize(t)));
      known.set(path, text);
    }
    return text;
  };
}

/** True when the file exists and holds what the call wrote. */
async function isPersisted(input: PersistedInput, diskText: DiskText): Promise<boolean> {
  const written = normalize(input.value);
  if (written.length === 0) return false;
  const disk = await diskText(input.path);
  return disk !== undefined && disk.includes(written);
}

/** The truncated format, in place of the content (design §3.3). */
export function renderTruncatedInput(toolName: string, input: PersistedInput, tokens: number): string {
  const lines = input.value.split('\n').length;
  const firstLine = input.value.split('\n', 1)[0].trim().slice(0, 80);
  const what = input.whole ? `Wrote ${formatCount(lines)} lines` : `Inserted ${formatCount(lines)} lines by edit`;
  return [
    `## Tool Call: ${toolName}`,
    `**Original Size:** ${formatCount(tokens)} tokens`,
    `**Path:** ${input.path}`,
    `**Summary:** ${what}${firstLine ? ` (first line: \`${firstLine.replace(/`/g, "'")}\`)` : ''}`,
    `**Status:** Content persisted to disk ✓`,
  ].join('\n');
}

export interface TruncateDeps {
  readonly files: WorkspaceFiles;
  readonly countText: (text: string) => Promise<number>;
  readonly now: number;
}

export interface TruncateResult {
  readonly messages: Message[];
  readonly records: TruncationRecord[];
}

/** Truncates verified inputs in every message but the last `keepRecent`. */
export async function truncatePersistedInputs(
  messages: readonly Message[],
  keepRecent: number,
  deps: TruncateDeps,
): Promise<TruncateResult> {
  const out = [...messages];
  const records: TruncationRecord[] = [];
  const end = Math.max(0, out.length - keepRecent);
  const diskText = diskTexts(deps.files);
  for (let i = 0; i < end; i++) {
    const msg = out[i];
    if (msg.role !== 'assistant') continue;
    let changed = false;
    const blocks = [];
    for (const block of msg.blocks) {
      const input = block.type === 'toolCall' && !isTruncated(block) ? persistableInput(block) : undefined;
      if (block.type !== 'toolCall' || !input) {
        blocks.push(block);
        continue;
      }
      const tokens = await deps.countText(input.value);
      if (tokens < TRUNCATE_MIN_INPUT_TOKENS || !(await isPersisted(input, diskText))) {
        blocks.push(block);
        continue;
      }
      const reference = renderTruncatedInput(block.name, input, tokens);
      const savedTokens = Math.max(0, tokens - (await deps.countText(reference)));
      blocks.push({ ...block, input: { ...block.input, [input.key]: reference } });
      records.push({ messageId: msg.id, callId: block.id, toolName: block.name, path: input.path, tokens, savedTokens, at: deps.now });
      changed = true;
    }
    if (changed) out[i] = { ...msg, blocks };
  }
  return { messages: out, records };
}

function isTruncated(call: ToolCallBlock): boolean {
  return Object.values(call.input).some(
    (v) => typeof v === 'string' && v.startsWith('## Tool Call: ') && v.includes('Content persisted to disk ✓'),
  );
}
