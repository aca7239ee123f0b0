/**
 * Tier 1: a tool result above the offload threshold goes to a file; the context keeps a preview
 * and the path (design §3.1, previews by content type §3.2).
 */
import type { Store } from '../ports';
import { buildPreview } from '../preview/preview';
import { parseJson } from '../preview/contentKind';
import { fileTimestamp, safeFileNamePart, toWellFormed } from '../text/sanitize';
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
export const DEFAULT_OFFLOAD_THRESHOLD_TOKENS = 15_000;

/** What was offloaded, kept in the session state and shown in the tree. */
export interface OffloadRecord {
  readonly callId: string;
  readonly toolName: string;
  /** Store path of the full content, relative to the session folder. */
  readonly file: string;
  readonly tokens: number;
  readonly savedTokens: number;
  readonly kind: string;
  readonly isError: boolean;
  readonly at: number;
  /** True when the token figure is an estimate (tokenizer not ready, or a huge result). */
  readonly estimated: boolean;
}

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

/** The file name: timestamp, tool and call id, each sanitized so no name can escape the folder. */
export function offloadFileName(at: number, toolName: string, callId: string, kind: string): string {
  const ext = kind === 'json' ? 'json' : 'txt';
  return `${fileTimestamp(at)}_${safeFileNamePart(toolName, 'tool')}_${safeFileNamePart(callId, 'call', 40)}.${ext}`;
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
  const preview = buildPreview(block.content, toolName);
  const name = offloadFileName(at, toolName, block.callId, preview.kind);
  const file = `${target.folder}/${name}`;
  const { text, replaced } = toWellFormed(block.content);
  await target.store.write(file, text);
  const replacement = renderOffloadReplacement({
    toolName,
    location: target.store.locate(file),
    file,
    tokens,
    preview: preview.text,
    isError: block.isError,
  });
  return { block: { ...block, content: replacement }, file, kind: preview.kind, replacedCharacters: replaced };
}

interface ReplacementParts {
  readonly toolName: string;
  readonly location: string;
  readonly file: string;
  readonly tokens: number;
  readonly preview: string;
  readonly isError: boolean;
}

/** The in-context replacement, with a pointer to ctx's own reading tool. */
export function renderOffloadReplacement(p: ReplacementParts): string {
  return [
    `## Offloaded: ${p.toolName} ${p.isError ? 'Error' : 'Result'}`,
    ...(p.isError ? ['**This tool call failed.** The error was too large to keep in context; its start and end are below.'] : []),
    `**Path:** ${p.location}`,
    `**Tokens Saved:** ~${formatCount(Math.max(0, p.tokens - Math.ceil(p.preview.length / 4)))} of ${formatCount(p.tokens)}`,
    `**Preview:**`,
    p.preview,
    '',
    `*Full content: call \`ctx_read_offloaded\` with path "${p.file.split('/').pop()}" (or search it with \`ctx_recover\`).*`,
  ].join('\n');
}
