/**
 * Tier 1: a tool result above the offload threshold goes to a file; the context keeps a preview
 * and the path (design §3.1, previews by content type §3.2).
 */
import type { Store } from '../ports';
import { buildPreview } from '../preview/preview';
import { parseJson } from '../preview/contentKind';
import { fileTimestamp, safeFileNamePart, toWellFormed } from '../text/sanitize';
import { maskSecrets } from '../text/secrets';
import { shortHash } from '../text/shortHash';
import type { ToolResultBlock } from '../types';
import { formatCount } from '../text/numbers';

export interface OffloadPolicy {
  /** Results above this many tokens are offloaded. @default 15000 */
  readonly thresholdTokens: number;
}

/** Results this small are already compact; never touch them. */
export const KEEP_SMALL_BELOW_TOKENS = 200;
/** Structured data (JSON/YAML) this small is kept for validation. */
export const KEEP_STRUCTURED_BELOW_TOKENS = 500;

export type OffloadDecision = 'keep' | 'offload';

/** Whether a result of this size and shape leaves the context. Errors are offloaded only when huge, and said so. */
export function offloadDecision(content: string, tokens: number, policy: OffloadPolicy): OffloadDecision {
  if (tokens < KEEP_SMALL_BELOW_TOKENS) return 'keep';
  if (tokens < KEEP_STRUCTURED_BELOW_TOKENS && (parseJson(content) !== undefined || looksLikeYaml(content))) return 'keep';
  return tokens > policy.thresholdTokens ? 'offload' : 'keep';
}

function looksLikeYaml(content: string): boolean {
  return /^(---\n)?([\w-]+:( .*)?\n){3,}/.test(content.slice(0, 2000));
}

/** Names tried with a running number when a file of the same name holds something else. */
const MAX_NAME_SUFFIX = 100;

/**
 * The file name: timestamp, tool and call id, each sanitized so no name can escape the folder,
 * then a short hash of the full tool name and call id. Sanitizing and shortening lose
 * characters (`a:1` and `a/1` both read `a_1`); the hash keeps such calls apart.
 */
export function offloadFileName(at: number, toolName: string, callId: string, kind: string, suffix = 1): string {
  const ext = kind === 'json' ? 'json' : 'txt';
  const hash = shortHash(`${toolName}\u0000${callId}`);
  const number = suffix > 1 ? `-${suffix}` : '';
  return `${fileTimestamp(at)}_${safeFileNamePart(toolName, 'tool')}_${safeFileNamePart(callId, 'call', 40)}_${hash}${number}.${ext}`;
}

export interface OffloadTarget {
  readonly store: Store;
  /** Folder of the session's offloaded files, e.g. `sessions/<id>/offloaded`. */
  readonly folder: string;
}

export interface Offloaded {
  readonly block: ToolResultBlock;
  readonly file: string;
  readonly kind: string;
  /** Lone surrogates replaced in the file copy (the archive keeps the original). */
  readonly replacedCharacters: number;
}

/**
 * Writes the full result and returns the block that replaces it in context. Throws the store's
 * error when the file cannot be written; the caller keeps the original block then.
 */
export async function offloadResult(
  block: ToolResultBlock,
  toolName: string,
  tokens: number,
  at: number,
  target: OffloadTarget,
): Promise<Offloaded> {
  const { replacement, ...written } = await offloadText(
    block.content,
    { toolName, id: block.callId, isError: block.isError },
    tokens,
    at,
    target,
  );
  return { block: { ...block, content: replacement }, ...written };
}

/** Where offloaded text came from: the tool (or what else brought it) and the id its file is named after. */
export interface OffloadSource {
  readonly toolName: string;
  readonly id: string;
  readonly isError: boolean;
  /** The replacement's heading after "Offloaded:". @default "<toolName> Result" (or "Error") */
  readonly heading?: string;
}

/** Writes the text to a new file and returns what replaces it in context: its preview and the path. */
export async function offloadText(
  content: string,
  source: OffloadSource,
  tokens: number,
  at: number,
  target: OffloadTarget,
): Promise<Omit<Offloaded, 'block'> & { readonly replacement: string }> {
  const preview = buildPreview(content, source.toolName);
  const { text, replaced } = toWellFormed(content);
  const file = await writeNewFile(target, (suffix) => offloadFileName(at, source.toolName, source.id, preview.kind, suffix), text);
  const replacement = renderOffloadReplacement({
    toolName: source.toolName,
    ...(source.heading === undefined ? {} : { heading: source.heading }),
    location: target.store.locate(file),
    file,
    tokens,
    // The file and the archive keep the text as it was; what the model sees in context is masked.
    preview: maskSecrets(preview.text),
    isError: source.isError,
  });
  return { replacement, file, kind: preview.kind, replacedCharacters: replaced };
}

/**
 * Writes the text under the first free name; an existing file is never overwritten. A file that
 * already holds exactly this text (the same result taken in again) is reused.
 */
export async function writeNewFile(target: OffloadTarget, nameFor: (suffix: number) => string, text: string): Promise<string> {
  for (let suffix = 1; suffix <= MAX_NAME_SUFFIX; suffix++) {
    const file = `${target.folder}/${nameFor(suffix)}`;
    if (await target.store.createExclusive(file, text)) return file;
    if ((await target.store.read(file)) === text) return file;
  }
  throw new OffloadNameError(nameFor(1), MAX_NAME_SUFFIX);
}

/** Every name for this result is taken by files holding something else. */
export class OffloadNameError extends Error {
  constructor(
    readonly fileName: string,
    readonly tried: number,
  ) {
    super(`No free file name for ${fileName}: ${tried} names are taken by other files.`);
    this.name = 'OffloadNameError';
  }
}

interface ReplacementParts {
  readonly toolName: string;
  /** What follows "Offloaded:". @default "<toolName> Result" (or "Error") */
  readonly heading?: string;
  readonly location: string;
  readonly file: string;
  readonly tokens: number;
  readonly preview: string;
  readonly isError: boolean;
}

/** The in-context replacement, with a pointer to ctx's own reading tool. */
export function renderOffloadReplacement(p: ReplacementParts): string {
  return [
    `## Offloaded: ${p.heading ?? `${p.toolName} ${p.isError ? 'Error' : 'Result'}`}`,
    ...(p.isError ? ['**This tool call failed.** The error was too large to keep in context; its start and end are below.'] : []),
    `**Path:** ${p.location}`,
    `**Tokens Saved:** ~${formatCount(Math.max(0, p.tokens - Math.ceil(p.preview.length / 4)))} of ${formatCount(p.tokens)}`,
    `**Preview:**`,
    p.preview,
    '',
    `*Full content: call \`ctx_read_offloaded\` with path "${p.file.split('/').pop()}" (or search it with \`ctx_recover\`).*`,
  ].join('\n');
}
