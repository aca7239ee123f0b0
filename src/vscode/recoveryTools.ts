/**
 * What ctx's recovery tools answer, shared by the registered tools (for @ctx and any agent that
 * calls them) and by ctx's models, which answer the model's calls themselves.
 */
import type { Store } from '../engine/host/ports';
import { readSessionOffloaded } from '../engine/host/storage';
import type { Recovery } from './recovery';

export interface RecoverInput {
  readonly query: string;
  readonly top?: number;
}

export interface ReadOffloadedInput {
  readonly path: string;
  readonly startLine?: number;
  readonly endLine?: number;
}

/** Hits returned when the model does not say how many. */
const DEFAULT_TOP = 5;
/** Most hits one call returns. */
const MAX_TOP = 20;

/**
 * Ranked excerpts for a query over a session's offloaded results, archive and checkpoints, and those of the
 * sessions in `alsoIds` (Copilot's archived history).
 */
export async function recoverText(
  recovery: Recovery,
  sessionId: string | undefined,
  input: RecoverInput,
  alsoIds: readonly string[] = [],
): Promise<string> {
  if (typeof input.query !== 'string' || input.query.trim() === '') {
    throw new Error('Give a query: words, identifiers, a path or an exact phrase.');
  }
  const top = Math.min(MAX_TOP, Math.max(1, Math.floor(typeof input.top === 'number' ? input.top : DEFAULT_TOP)));
  const hits = await recovery.search(sessionId, input.query, top, alsoIds);
  if (hits.length === 0) return `No match for "${input.query}" in the offloaded results or the archive.`;
  return hits.map((h, i) => `${i + 1}. [${h.source}] ${h.ref} (score ${h.score.toFixed(1)})\n${h.excerpt}`).join('\n\n');
}

/**
 * A numbered line range of an offloaded result of the conversation: the session and those it
 * continues from; the path can only narrow that, never name another session.
 */
export async function readOffloadedText(
  recovery: Recovery,
  store: Store,
  sessionId: string | undefined,
  input: ReadOffloadedInput,
): Promise<string> {
  if (typeof input.path !== 'string') throw new Error('Give "path": the file name shown in the "## Offloaded:" note.');
  const sessionIds = sessionId ? await recovery.lineage(sessionId) : [];
  const range = await readSessionOffloaded(store, sessionIds, input.path, {
    startLine: typeof input.startLine === 'number' ? input.startLine : undefined,
    endLine: typeof input.endLine === 'number' ? input.endLine : undefined,
  });
  return `${range.name}, lines ${range.startLine}–${range.endLine} of ${range.totalLines}:\n${range.text}\n\n${range.hint}`;
}
