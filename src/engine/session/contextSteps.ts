/**
 * The steps of tiers 2 and the watermark as they apply to a session's state. Each reads the state
 * it is given and returns what it produced (a patch and the events); none changes anything itself.
 */
import { type StepResult, NOTHING } from '../model/stepResult';
import { withOffloaded } from '../ledger/ledgerEdits';
import type { Logger, Store, WorkspaceFiles } from '../ports';
import { compressOldResults } from '../tiers/compressResults';
import { offloadAttachments, type AttachmentOffload, type AttachmentOffloadInput } from '../tiers/offloadAttachments';
import { offloadToFit } from '../tiers/offloadToFit';
import { truncatePersistedInputs } from '../tiers/truncateInputs';
import { applyWatermark, findCheckpointCall, indexOfCall } from '../tiers/watermark';
import type { Summarizer } from '../summary/summarizer';
import type { TokenCounter } from '../tokens/counter';
import { guideFrom } from '../summary/summaryGuide';
import { formatCount } from '../text/numbers';
import type { SessionPaths } from '../model/sessionPaths';
import type { SessionState } from '../model/sessionState';
import { appended } from '../appendedList';

export interface TruncateStepDeps {
  readonly files: WorkspaceFiles;
  readonly counter: TokenCounter;
  readonly now: number;
}

/** Tier 2: old write/edit inputs whose content is verifiably on disk give up their copy. */
export async function truncateInputsStep(state: SessionState, recentMessagesKept: number, deps: TruncateStepDeps): Promise<StepResult> {
  const result = await truncatePersistedInputs(state.active, recentMessagesKept, {
    files: deps.files,
    countText: (t) => deps.counter.countText(t),
    countsExact: () => !deps.counter.estimated,
    now: deps.now,
  });
  if (result.records.length === 0) return NOTHING;
  return {
    patch: { active: result.messages, truncations: appended(state.truncations, result.records) },
    events: result.records.map((r) => ({
      at: r.at,
      kind: 'truncate',
      savedTokens: r.savedTokens,
      detail: `Truncated ${r.toolName} input for ${r.path} (content on disk)`,
    })),
  };
}

/** A call of a checkpoint tool (design §3.4) moves the watermark to that call. */
export function resolvePendingCheckpoint(state: SessionState, logger: Logger): StepResult {
  const tool = state.pendingCheckpointTool;
  if (!tool) return NOTHING;
  const found = findCheckpointCall(state.active, tool, state.watermark);
  if (found) {
    logger.info(`Watermark updated to ${found} (checkpoint by ${tool}).`);
    return { patch: { watermark: found, pendingCheckpointTool: undefined } };
  }
  logger.warn(`Checkpoint tool ${tool} not found after the watermark; the watermark is unchanged.`);
  return { patch: { pendingCheckpointTool: undefined } };
}

/** For an explicit compression: the watermark moves to the last tool call before the latest messages. */
export function moveWatermarkBeforeRecent(state: SessionState, recentMessagesKept: number, logger: Logger): StepResult {
  const end = state.active.length - recentMessagesKept;
  for (let i = end - 1; i >= 0; i--) {
    const calls = state.active[i].blocks.filter((b) => b.type === 'toolCall');
    const last = calls[calls.length - 1];
    if (last?.type !== 'toolCall') continue;
    if (last.id === state.watermark || !isAfterWatermark(state, last.id)) return NOTHING;
    logger.info(`Watermark moved to ${last.id} by an explicit compression.`);
    return { patch: { watermark: last.id } };
  }
  return NOTHING;
}

function isAfterWatermark(state: SessionState, callId: string): boolean {
  if (!state.watermark) return true;
  const current = indexOfCall(state.active, state.watermark);
  return current === -1 || indexOfCall(state.active, callId) > current;
}

/** The watermark drops every tool call and result before it; all text stays. */
export async function watermarkStep(state: SessionState, counter: TokenCounter, logger: Logger, now: number): Promise<StepResult> {
  const watermark = state.watermark;
  if (!watermark) return NOTHING;
  const result = applyWatermark(state.active, watermark);
  if (!result.found) {
    logger.warn(`Watermark ${watermark} not found in the context; no tool blocks were dropped.`);
    return NOTHING;
  }
  if (result.removedBlocks === 0) return NOTHING;
  const before = await counter.measure(state.active);
  const after = await counter.measure(result.messages);
  return {
    patch: { active: result.messages },
    events: [
      {
        at: now,
        kind: 'watermark',
        savedTokens: Math.max(0, before.total - after.total),
        detail: `Dropped ${result.removedBlocks} tool blocks before the watermark (${result.removedMessages} empty messages removed); all text kept`,
      },
    ],
  };
}

export interface CompressResultsStepDeps {
  readonly counter: TokenCounter;
  /** The deterministic summarizer: compressing old results never waits on a model. */
  readonly summarizer: Summarizer;
  readonly paths: SessionPaths;
  readonly now: number;
}

/** Old results compressed in place (design §3.5): old results above a size are compressed in place; the archive keeps the originals. */
export async function compressOldResultsStep(
  state: SessionState,
  options: { readonly recentMessagesKept: number; readonly compressResultsMinTokens: number; readonly compressResultsShare: number },
  deps: CompressResultsStepDeps,
): Promise<StepResult> {
  const result = await compressOldResults(state.active, {
    keepLast: options.recentMessagesKept,
    minTokens: options.compressResultsMinTokens,
    share: options.compressResultsShare,
    countText: (t) => deps.counter.countText(t),
    summarizer: deps.summarizer,
    guide: guideFrom(state.ledger),
    references: { archive: deps.paths.archive, offloaded: deps.paths.offloaded },
  });
  if (result.compressed.length === 0) return NOTHING;
  return {
    patch: { active: result.messages },
    events: result.compressed.map((c) => ({
      at: deps.now,
      kind: 'compress-results',
      savedTokens: c.before - c.after,
      detail: `Compressed an old ${c.toolName} result in place: ${formatCount(c.before)} → ${formatCount(c.after)} tokens (the original is in the archive)`,
      name: 'compressed',
    })),
  };
}

export interface AttachmentStepDeps {
  readonly store: Store;
  readonly counter: TokenCounter;
  readonly paths: SessionPaths;
  readonly now: number;
}

/**
 * Attached context leaves a context that is still above `limitTokens` after everything else: the
 * largest attached blocks of the live messages go to files until it is below (design §3.1).
 */
export async function offloadAttachmentsStep(
  state: SessionState,
  totalTokens: number,
  limitTokens: number,
  deps: AttachmentStepDeps,
): Promise<StepResult> {
  if (totalTokens <= limitTokens) return NOTHING;
  const result = await offloadAttachments(liveOffloadInput(state, totalTokens - limitTokens, deps));
  return offloadedStep(state, result, 'the context did not fit with it');
}

/**
 * Over the budget after everything else (the model would refuse the request): the largest tool results of the live
 * messages go to files, then the user's longest texts if need be, until the context is below `limitTokens`.
 */
export async function offloadToFitStep(
  state: SessionState,
  totalTokens: number,
  budgetTokens: number,
  limitTokens: number,
  deps: AttachmentStepDeps,
): Promise<StepResult> {
  if (totalTokens <= budgetTokens) return NOTHING;
  const result = await offloadToFit({
    ...liveOffloadInput(state, totalTokens - limitTokens, deps),
    offloadedCallIds: new Set(state.offloads.map((o) => o.callId)),
    overBudgetTokens: totalTokens - budgetTokens,
    budgetTokens,
  });
  return offloadedStep(state, result, 'the request did not fit the window with it');
}

/** What an offload of live blocks reads: the live messages, the tokens to free, the counts as measured, the folder. */
function liveOffloadInput(state: SessionState, excessTokens: number, deps: AttachmentStepDeps): AttachmentOffloadInput {
  const { counter } = deps;
  return {
    active: state.active,
    excessTokens,
    blockTokens: (b) => counter.blockTokens(b),
    countText: (t) => counter.countText(t),
    target: { store: deps.store, folder: deps.paths.offloaded },
    now: deps.now,
    estimated: counter.estimated,
  };
}

/** What an offload of live blocks produced, as a step: the messages with their previews, the records, one event each. */
function offloadedStep(state: SessionState, result: AttachmentOffload, why: string): StepResult {
  if (result.records.length === 0) return { warnings: result.failures };
  return {
    patch: {
      active: result.messages,
      offloads: appended(state.offloads, result.records),
      ledger: withOffloaded(state.ledger, result.records),
    },
    events: result.records.map((r) => ({
      at: r.at,
      kind: 'offload',
      savedTokens: r.savedTokens,
      detail: `Offloaded ${r.toolName} (${formatCount(r.tokens)} tokens) to ${r.file.split('/').pop()}: ${why}`,
      file: r.file,
    })),
    warnings: result.failures,
  };
}
