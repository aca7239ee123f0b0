/**
 * What follows a checkpoint applied while the user waited (with the deterministic summary, and
 * without its recall check): in the background, the model's summary when a model is at hand, and
 * the recall check of every checkpoint it wrote; at the next request, applied if those checkpoints
 * are still as they were.
 */
import type { Cancellation } from '../cancellation';
import type { CompressionEvent } from '../model/compressionEvent';
import type { Ledger, LedgerFact } from '../model/ledgerTypes';
import type { Fact } from '../model/fact';
import type { RecallFigures } from '../model/recallFigures';
import { mergeFactLists } from '../recall/selectFacts';
import type { SessionPaths } from '../model/sessionPaths';
import type { SessionState } from '../model/sessionState';
import { guideFrom } from '../summary/summaryGuide';
import { formatCount } from '../text/numbers';
import type { Message } from '../types';
import { targetTokensFor } from './aging';
import type { Checkpoint } from '../model/checkpoint';
import { recallEvent, tierEvent } from './checkpointEvents';
import { withRecalledFacts, type CheckpointRecall, type WrittenCheckpoint } from './checkpointRecall';
import type { OriginalSpan } from './spanOriginals';
import { TARGET_TOLERANCE, type CheckpointWork, type SummarizeFn } from './checkpointing';

/** The follow-up's result. */
export interface FollowUp {
  readonly kind: 'follow-up';
  /** The checked checkpoints, by id, and the summary each had when the follow-up started. */
  readonly replacements: readonly { readonly checkpoint: Checkpoint; readonly wasSummary: string }[];
  readonly ledgerFacts: readonly LedgerFact[];
  readonly recall: RecallFigures;
  /** The model that rewrote the new checkpoint's summary, when one did. */
  readonly upgradedBy?: string;
  /** The new checkpoint. */
  readonly newestId: string;
  /** Facts of the checked spans that no checkpoint holds, for the earlier lines' pool. */
  readonly fillFacts: readonly Fact[];
}

export interface FollowUpDeps {
  state(): SessionState;
  readonly paths: SessionPaths;
  /** The summary target of a new checkpoint. */
  checkpointTokens(): number;
  countText(text: string): Promise<number>;
  originals(ids: readonly string[]): Promise<OriginalSpan>;
  /** The name of the deterministic summarizer: its summary is no upgrade. */
  readonly deterministic: string;
  recall(
    checkpoints: readonly Checkpoint[],
    written: readonly WrittenCheckpoint[],
    ledger: Ledger,
    live: readonly Message[],
    cancellation: Cancellation,
  ): Promise<CheckpointRecall>;
}

/** Writes the follow-up of `work`: the model's summary of its new checkpoint (with `summarize`, when given), then the recall check. */
export async function writeFollowUp(
  work: CheckpointWork,
  summarize: SummarizeFn | undefined,
  deps: FollowUpDeps,
  cancellation: Cancellation,
): Promise<FollowUp> {
  let written = work.written;
  let upgradedBy: string | undefined;
  if (summarize) {
    const created = work.created;
    const factsFor = written.find((w) => w.checkpoint.id === created.id)?.facts ?? [];
    const targetTokens = targetTokensFor(0, deps.checkpointTokens());
    const summary = await summarize(
      {
        kind: 'history',
        span: await deps.originals(created.messageIds),
        guide: guideFrom(deps.state().ledger),
        targetTokens,
        references: {
          archive: deps.paths.archive,
          offloaded: deps.paths.offloaded,
          firstMessageId: created.messageIds[0] ?? '',
          lastMessageId: created.messageIds[created.messageIds.length - 1] ?? '',
        },
        facts: factsFor,
        besideLedger: true,
        ...(work.conversation ? { conversation: work.conversation } : {}),
      },
      cancellation,
    );
    const tokens = await deps.countText(summary.text);
    if (summary.summarizedBy !== deps.deterministic && tokens <= targetTokens * TARGET_TOLERANCE) {
      upgradedBy = summary.summarizedBy;
      const upgraded: Checkpoint = { ...created, summary: summary.text, summarizedBy: summary.summarizedBy, currentTokens: tokens };
      written = written.map((w) => (w.checkpoint.id === created.id ? { ...w, checkpoint: upgraded } : w));
    }
  }
  const state = deps.state();
  const current = state.checkpoints.map((c) => written.find((w) => w.checkpoint.id === c.id)?.checkpoint ?? c);
  const recall = await deps.recall(current, written, state.ledger, state.active, cancellation);
  const wasSummary = new Map(state.checkpoints.map((c) => [c.id, c.summary]));
  return {
    kind: 'follow-up',
    replacements: written.flatMap((w) => {
      const checked = recall.checkpoints.find((c) => c.id === w.checkpoint.id);
      const was = wasSummary.get(w.checkpoint.id);
      return checked && was !== undefined ? [{ checkpoint: checked, wasSummary: was }] : [];
    }),
    ledgerFacts: recall.ledgerFacts,
    recall: recall.figures,
    ...(upgradedBy ? { upgradedBy } : {}),
    newestId: work.created.id,
    fillFacts: mergeFactLists(recall.leftovers, work.fillFacts ?? []),
  };
}

/** What a finished follow-up changes now: the checkpoints still as they were take their checked form; undefined when none is. */
export function followUpPatch(
  followUp: FollowUp,
  state: SessionState,
  at: number,
): { readonly patch: Partial<SessionState>; readonly events: CompressionEvent[] } | undefined {
  const current = state.checkpoints;
  const byId = new Map(followUp.replacements.map((r) => [r.checkpoint.id, r]));
  const checkpoints = current.map((c) => {
    const r = byId.get(c.id);
    return r && r.checkpoint.age === c.age && r.wasSummary === c.summary ? r.checkpoint : c;
  });
  if (checkpoints.every((c, i) => c === current[i])) return undefined;
  const upgraded = followUp.upgradedBy ? checkpoints.find((c) => c.summarizedBy === followUp.upgradedBy && c.age === 0) : undefined;
  return {
    patch: { checkpoints, ledger: withRecalledFacts(state.ledger, followUp.ledgerFacts) },
    events: [
      ...(upgraded
        ? [
            tierEvent(
              at,
              'checkpoint',
              0,
              `The model's summary replaced the deterministic one in the latest checkpoint (${formatCount(upgraded.currentTokens)} tokens)`,
              'checkpoint-upgraded',
              upgraded.id,
            ),
          ]
        : []),
      recallEvent(at, followUp.recall, followUp.newestId),
    ],
  };
}
