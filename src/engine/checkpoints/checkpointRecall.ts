/**
 * The recall check of the checkpoints a Tier 3 run wrote (design §6.2): the new checkpoint and
 * every one it aged. Before their messages leave the context, each span's facts must be in the
 * new context (the ledger, the checkpoints, the live messages) or one search away in the archive;
 * what is neither is put back, into the checkpoint's summary within its target, else into the
 * ledger's facts. Any summary is checked the same way, a model's or ctx's own.
 */
import type { Cancellation } from '../cancellation';
import { addLedgerFacts } from '../ledger/ledgerFacts';
import { earlierUserMessages, leadingSections } from '../ledger/ledgerSections';
import type { Ledger, LedgerFact } from '../model/ledgerTypes';
import type { Fact } from '../model/fact';
import { holdsKey, matchForm } from '../facts/factKey';
import { putBackMissing } from '../recall/putBack';
import { checkRecall, type RecallSearch } from '../recall/recallCheck';
import { sumRecallFigures, type RecallFigures } from '../model/recallFigures';
import type { ArchiveReader, OriginalsSearch } from '../model/sessionOriginals';
import type { SessionState } from '../model/sessionState';
import type { CountText } from '../model/countText';
import { messageContentText, type Message } from '../types';
import { targetTokensFor } from './aging';
import type { Checkpoint } from '../model/checkpoint';

/** A checkpoint this run wrote, with the facts of its span. */
export interface WrittenCheckpoint {
  readonly checkpoint: Checkpoint;
  readonly facts: readonly Fact[];
}

export interface CheckpointRecallInputs {
  /** Every checkpoint as it will stand, oldest first, the written ones among them. */
  readonly checkpoints: readonly Checkpoint[];
  readonly written: readonly WrittenCheckpoint[];
  readonly ledger: Ledger;
  /** The messages that stay in the context. */
  readonly live: readonly Message[];
  readonly search: RecallSearch;
  readonly countText: CountText;
  /** A new checkpoint's summary target; aged ones take their share of it. */
  readonly checkpointTokens: number;
  readonly now: number;
  readonly cancellation: Cancellation;
}

export interface CheckpointRecall {
  /** The checkpoints with the written ones' summaries (facts put back), sizes and recall figures. */
  readonly checkpoints: readonly Checkpoint[];
  /** Facts that did not fit a summary, for the ledger's facts. */
  readonly ledgerFacts: readonly LedgerFact[];
  /** This run's checks added up. */
  readonly figures: RecallFigures;
  /** The written spans' facts that are not verbatim in the new context (found by search), best first: what the earlier lines' room can hold. */
  readonly leftovers: readonly Fact[];
}

export async function checkCheckpointRecall(i: CheckpointRecallInputs): Promise<CheckpointRecall> {
  let checkpoints = i.checkpoints;
  let ledger = i.ledger;
  const figures: RecallFigures[] = [];
  for (const { checkpoint, facts } of i.written) {
    const contextText = newContextText(ledger, checkpoints, i.live);
    const check = await checkRecall({ facts, contextText, search: i.search, cancellation: i.cancellation });
    const put = await putBackMissing({
      check,
      summary: checkpoint.summary,
      targetTokens: targetTokensFor(checkpoint.age, i.checkpointTokens),
      countText: i.countText,
      ledger,
      at: i.now,
    });
    ledger = put.ledger;
    figures.push(put.figures);
    const summaryChanged = put.summary !== checkpoint.summary;
    const checked: Checkpoint = {
      ...checkpoint,
      ...(summaryChanged ? { summary: put.summary, currentTokens: await i.countText(put.summary) } : {}),
      recall: put.figures,
    };
    checkpoints = checkpoints.map((c) => (c.id === checkpoint.id ? checked : c));
  }
  const before = new Set(i.ledger.facts ?? []);
  const context = matchForm(newContextText(ledger, checkpoints, i.live));
  const leftovers = i.written
    .flatMap((w) => w.facts)
    .filter((f) => !holdsKey(context, f.key))
    .sort((a, b) => b.score - a.score);
  return { checkpoints, ledgerFacts: (ledger.facts ?? []).filter((f) => !before.has(f)), figures: sumRecallFigures(figures), leftovers };
}

/** The ledger's facts with those put back by a recall check, under its cap. */
export function withRecalledFacts(ledger: Ledger, facts: readonly LedgerFact[]): Ledger {
  return facts.length === 0 ? ledger : addLedgerFacts(ledger, facts);
}

/**
 * What the model will see after the checkpoint, as text: the ledger's part that is never cut
 * (its tool record is shortened to fit, so it does not count), the checkpoints and the live messages.
 */
function newContextText(ledger: Ledger, checkpoints: readonly Checkpoint[], live: readonly Message[]): string {
  const liveIds = new Set(live.map((m) => m.id));
  const parts = [...leadingSections(ledger, liveIds), earlierUserMessages(ledger, liveIds) ?? ''];
  for (const fact of ledger.facts ?? []) parts.push(fact.line);
  for (const c of checkpoints) parts.push(c.summary);
  for (const m of live) parts.push(messageContentText(m));
  return parts.join('\n');
}

/** The recall check's search: the session's originals, each hit as its whole archived message. */
export async function recallSearchOver(archive: ArchiveReader, search: OriginalsSearch, state: SessionState): Promise<RecallSearch> {
  const archived = await archive.read();
  const originals = await search.originals(archived, state);
  return async (query, top) => {
    const hits = await originals(query, top);
    const messages = await archived.byIds(hits.map((hit) => hit.messageId ?? ''));
    return hits.map((hit, i) => {
      const message = hit.messageId ? messages[i] : undefined;
      return { text: message ? messageContentText(message) : hit.excerpt };
    });
  };
}
