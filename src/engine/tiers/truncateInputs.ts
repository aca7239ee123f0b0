/**
 * Tier 2: old write/edit tool calls whose content is already on disk give up their copy of the
 * content (design §3.3). Only verified content goes: the file must exist and
 * hold what was written. The most recent messages are never touched.
 */
import type { TruncationRecord } from '../model/truncationRecord';
import type { WorkspaceFiles } from '../ports';
import { CONTENT_KEYS, PATH_KEYS, stringInput } from '../toolInputKeys';
import type { Block, Message, ToolCallBlock } from '../types';
import { formatCount } from '../text/numbers';
import { fnv1a } from '../text/fnv';

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
  const whole = stringInput(input, CONTENT_KEYS);
  if (whole) return { ...whole, path, whole: true };
  const fragment = stringInput(input, FRAGMENT_KEYS);
  return fragment ? { ...fragment, path, whole: false } : undefined;
}

function normalize(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\s+$/, '');
}

/** A file's text as it is compared with what was written (undefined when there is no such file), and a fingerprint of it. */
interface DiskText {
  readonly text: string | undefined;
  readonly print: number;
}
interface ReadDisk {
  read(path: string): Promise<DiskText>;
  /** The text of a file read already in this pass, without a wait: a pass looks at thousands of old writes. */
  settled(path: string): DiskText | undefined;
}

/**
 * Each file read and normalized once, however many calls wrote to it: a pass looks at every old
 * write again, and a file a long session edits over and over is compared once per edit.
 */
function diskTexts(files: WorkspaceFiles): ReadDisk {
  const known = new Map<string, Promise<DiskText>>();
  const settled = new Map<string, DiskText>();
  return {
    read: (path) => {
      let disk = known.get(path);
      if (disk === undefined) {
        disk = files.readText(path).then((t) => {
          const text = t === undefined ? undefined : normalize(t);
          const read = { text, print: text === undefined ? -1 : fingerprint(text) };
          settled.set(path, read);
          return read;
        });
        known.set(path, disk);
      }
      return disk;
    },
    settled: (path) => settled.get(path),
  };
}

/** FNV-1a over a text's char codes, with its length: a file's text changed when this did. */
function fingerprint(text: string): number {
  return (fnv1a(text) >>> 0) * 0x100000 + (text.length % 0x100000);
}

/**
 * Calls found to keep their content, by the fingerprint of their file's text when they were: every
 * pass looks at every old write in the live context, and counting and comparing each of them
 * again made a pass cost the size of the context (in a 1M-token window, most of a request's
 * work). A call is looked at again only when its file changed. Blocks never change, so they are
 * the key, and a call gone from the context takes its entry with it.
 */
const keptWhile = new WeakMap<ToolCallBlock, number>();
/** Calls with nothing to give up: no file and content in their input, or truncated already. */
const settled = new WeakSet<ToolCallBlock>();

/** True when the file exists and holds what the call wrote. */
function isPersisted(written: string, disk: DiskText): boolean {
  return written.length > 0 && disk.text !== undefined && disk.text.includes(written);
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
  /** False while `countText` answers with estimates. */
  readonly countsExact?: () => boolean;
  readonly now: number;
}

export interface TruncateResult {
  readonly messages: readonly Message[];
  readonly records: TruncationRecord[];
}

/** Truncates verified inputs in every message but the last `keepRecent`. */
export async function truncatePersistedInputs(
  messages: readonly Message[],
  keepRecent: number,
  deps: TruncateDeps,
): Promise<TruncateResult> {
  let out: Message[] | undefined;
  const records: TruncationRecord[] = [];
  const end = Math.max(0, messages.length - keepRecent);
  const diskText = diskTexts(deps.files);
  for (let i = 0; i < end; i++) {
    const msg = messages[i];
    if (msg.role !== 'assistant') continue;
    let blocks: Block[] | undefined;
    for (let j = 0; j < msg.blocks.length; j++) {
      const block = msg.blocks[j];
      if (block.type !== 'toolCall' || settled.has(block)) continue;
      const input = truncatableInput(block);
      if (!input) {
        settled.add(block);
        continue;
      }
      const disk = diskText.settled(input.path) ?? (await diskText.read(input.path));
      if (keptWhile.get(block) === disk.print) continue;
      if (!isPersisted(normalize(input.value), disk)) {
        keptWhile.set(block, disk.print);
        continue;
      }
      const tokens = await deps.countText(input.value);
      if (tokens < TRUNCATE_MIN_INPUT_TOKENS) {
        // An estimate is not remembered: the exact count may be over the threshold.
        if (deps.countsExact?.() !== false) keptWhile.set(block, disk.print);
        continue;
      }
      const reference = renderTruncatedInput(block.name, input, tokens);
      const savedTokens = Math.max(0, tokens - (await deps.countText(reference)));
      const truncated: ToolCallBlock = { ...block, input: { ...block.input, [input.key]: reference } };
      settled.add(truncated);
      blocks ??= [...msg.blocks];
      blocks[j] = truncated;
      records.push({ messageId: msg.id, callId: block.id, toolName: block.name, path: input.path, tokens, savedTokens, at: deps.now });
    }
    if (blocks) {
      out ??= [...messages];
      out[i] = { ...msg, blocks };
    }
  }
  return { messages: out ?? messages, records };
}

/** Each call's content field, read once: blocks never change, and a pass looks at every old write on every request. */
const inputs = new WeakMap<ToolCallBlock, PersistedInput | null>();

/** The content field of a call not truncated already, when it has one. */
function truncatableInput(block: ToolCallBlock): PersistedInput | undefined {
  let input = inputs.get(block);
  if (input === undefined) {
    input = (isTruncated(block) ? undefined : persistableInput(block)) ?? null;
    inputs.set(block, input);
  }
  return input ?? undefined;
}

function isTruncated(call: ToolCallBlock): boolean {
  return Object.values(call.input).some(
    (v) => typeof v === 'string' && v.startsWith('## Tool Call: ') && v.includes('Content persisted to disk ✓'),
  );
}
