/** What Tier 3 tells the user it did: a checkpoint made, older ones aged or merged, the recall check's figures. */
import type { CompressionEvent, EngineEventName, EventKind } from '../model/compressionEvent';
import type { RecallFigures } from '../model/recallFigures';
import { counted, formatCount } from '../text/numbers';
import { AGE_LABELS } from './aging';
import type { CheckpointWork } from './checkpointing';

/** One event of Tier 3 at `at`. */
export function tierEvent(
  at: number,
  kind: EventKind,
  savedTokens: number,
  detail: string,
  name: EngineEventName,
  checkpointId?: string,
): CompressionEvent {
  return { at, kind, savedTokens, detail, name, ...(checkpointId ? { checkpointId } : {}) };
}

/** The recall check's figures as an event. */
export function recallEvent(at: number, f: RecallFigures, checkpointId?: string): CompressionEvent {
  const detail = `Recall check: ${f.extracted} facts, ${f.kept} in the context, ${f.found} found by search, ${f.putBack} put back, ${f.lost} lost`;
  return { ...tierEvent(at, 'recall', 0, detail, 'recall-checked', checkpointId), recall: f };
}

/**
 * What applying a checkpoint did, once the context after it is measured; `deterministic` is the deterministic
 * summarizer's name. `tokensBefore` and `tokensAfter` are what the next request sends before and after it, like with
 * like, and a checkpoint no smaller than its messages says so.
 */
export function appliedEvents(
  work: CheckpointWork,
  tokensBefore: number,
  tokensAfter: number,
  at: number,
  deterministic: string,
): CompressionEvent[] {
  const saved = Math.max(0, tokensBefore - tokensAfter);
  const savedWords = saved > 0 ? `saved ~${formatCount(saved)} tokens` : 'no smaller than they were';
  const needs = tokensAfter < tokensBefore ? 'needs' : 'needs no less';
  const by = work.created.summarizedBy === deterministic ? 'deterministic summary' : `summary by ${work.created.summarizedBy}`;
  const events = [
    tierEvent(
      at,
      'checkpoint',
      saved,
      `Summarized ${counted(work.plan.messageIds.length, 'message')} → 1 summary (${savedWords}; ` +
        `${work.created.range}, ${formatCount(work.created.currentTokens)} tokens, ${by})`,
      'checkpoint-created',
      work.created.id,
    ),
  ];
  for (const { from, to } of work.aged) {
    const wasTokens = from.reduce((sum, c) => sum + c.currentTokens, 0);
    const what = from.length > 1 ? `Merged ${from.length} checkpoints into one` : `Checkpoint ${to.range} aged to ${AGE_LABELS[to.age]}`;
    events.push(
      tierEvent(
        at,
        'age',
        Math.max(0, wasTokens - to.currentTokens),
        `${what}: ${formatCount(wasTokens)} → ${formatCount(to.currentTokens)} tokens, re-summarized from the archived originals`,
        'checkpoint-aged',
        to.id,
      ),
    );
  }
  if (work.recall) events.push(recallEvent(at, work.recall, work.created.id));
  events.push(
    tierEvent(
      at,
      'checkpoint',
      0,
      `After the checkpoint the next request ${needs}: ${formatCount(tokensBefore)} → ${formatCount(tokensAfter)} tokens`,
      'compressed',
    ),
  );
  return events;
}
