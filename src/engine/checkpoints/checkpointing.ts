/**
 * Tier 3's work, before anything is applied: summarize the planned range into a new checkpoint
 * and age the existing ones, each from the archived originals. Only the new checkpoint's summary is
 * asked of a model: the aged ones are ctx's deterministic summaries of their originals, which cost no
 * request and never summarize a summary, so a checkpoint costs one model request however long the
 * session. The result is applied by the session only if it still matches the context (see `basisOf`).
 */
import type { Cancellation } from '../cancellation';
import { parseMarkers } from '../ledger/markers';
import type { ConversationCopy, SummaryGuide, SummaryBrief, RecoveryReferences } from '../summary/summarizer';
import type { CountText } from '../model/countText';
import { isNoOp, planAging, rangeLabel, targetTokensFor } from './aging';
import type { Checkpoint } from '../model/checkpoint';
import type { CheckpointPlan } from './checkpointPlan';
import type { LedgerFact } from '../model/ledgerTypes';
import type { Fact } from '../model/fact';
import type { RecallFigures } from '../model/recallFigures';
import type { WrittenCheckpoint } from './checkpointRecall';
import type { OriginalSpan } from './spanOriginals';
import { buildSummaryPrompt } from '../summary/summaryPrompt';
import { conversationQuestion, conversationTokens } from '../summary/conversationSummary';

/** A summary and who wrote it. */
export interface WrittenSummary {
  readonly text: string;
  readonly summarizedBy: string;
  /** Why the model's summary was not used, when it was not. */
  readonly fallbackReason?: string;
}

/** A checkpoint's summary request: the span's originals, read as far as the summarizer needs them. */
export interface SpanSummaryRequest extends SummaryBrief {
  readonly span: OriginalSpan;
  /** The span's facts: the deterministic summary is built on them. */
  readonly facts: readonly Fact[];
}

/** Summarizes a request; the session passes the model-first summarizer or the deterministic floor. */
export type SummarizeFn = (request: SpanSummaryRequest, cancellation: Cancellation) => Promise<WrittenSummary>;

export interface CheckpointingDeps {
  /** The archived originals of these messages, in archive order (offloaded results as references). */
  originals(ids: readonly string[]): Promise<OriginalSpan>;
  /** 1-based position of a message in the archive, for range labels. */
  position(id: string): number;
  summarize: SummarizeFn;
  /** The deterministic floor: used when a summary misses its target by too much. */
  floor: SummarizeFn;
  /** The facts of a span (design §6.2): they go to the summarizer, and the recall check verifies them. */
  factsOf(span: OriginalSpan): Promise<Fact[]>;
  countText: CountText;
  now(): number;
  newId(): string;
}

export interface CheckpointingInputs {
  readonly plan: CheckpointPlan;
  readonly existing: readonly Checkpoint[];
  readonly guide: SummaryGuide;
  readonly focus?: string;
  /** The new checkpoint's target; older ages take their share of it. */
  readonly checkpointTokens: number;
  /** The sequence number of this Tier 3 run. */
  readonly compressionNumber: number;
  readonly archivePath: string;
  readonly offloadedFolder: string;
  /** The conversation about to be sent, when the new checkpoint's summary is asked as its next request. */
  readonly conversation?: ConversationCopy;
}

export interface CheckpointWork {
  readonly basis: string;
  readonly plan: CheckpointPlan;
  /** The new list of checkpoints, oldest first, the new one last. */
  readonly checkpoints: readonly Checkpoint[];
  readonly created: Checkpoint;
  /** Aging steps that changed a checkpoint: what it was and what it became. */
  readonly aged: readonly { readonly from: readonly Checkpoint[]; readonly to: Checkpoint }[];
  readonly fallbackReasons: readonly string[];
  /** The checkpoints this work wrote (the new one, then the aged ones), each with its span's facts. */
  readonly written: readonly WrittenCheckpoint[];
  /** Facts the recall check put into the ledger, when it ran with this work. */
  readonly ledgerFacts?: readonly LedgerFact[];
  /** This work's recall checks added up, when they ran with it. */
  readonly recall?: RecallFigures;
  /** Facts of the summarized messages that the earlier lines' room can hold, best first. */
  readonly fillFacts?: readonly Fact[];
  /**
   * The input tokens of the summary request a model is (or, without a model, would be) sent for the new checkpoint:
   * the whole prompt, its span rendered as a model reads it. What a checkpoint costs beside the requests of the
   * conversation.
   */
  readonly summaryRequestTokens: number;
  /** The conversation the summary was asked in, when it was (see `summary/conversationSummary.ts`). */
  readonly conversation?: ConversationCopy;
}

/** A summary may miss its target by this factor before the deterministic floor replaces it. */
export const TARGET_TOLERANCE = 1.25;

/** What a prepared piece of work was prepared on: the checkpoints it ages and the range it takes. */
export function basisOf(existing: readonly Checkpoint[], plan: CheckpointPlan): string {
  const ids = plan.messageIds;
  return `${existing.map((c) => `${c.id}@${c.age}`).join(',')}|${ids[0] ?? ''}..${ids[ids.length - 1] ?? ''}#${ids.length}`;
}

export async function prepareCheckpoint(
  input: CheckpointingInputs,
  deps: CheckpointingDeps,
  cancellation: Cancellation,
): Promise<CheckpointWork> {
  const fallbackReasons: string[] = [];
  const write = async (
    messageIds: readonly string[],
    targetTokens: number,
    summarize: SummarizeFn,
    focus?: string,
    conversation?: ConversationCopy,
  ): Promise<{ span: OriginalSpan; summary: WrittenSummary; tokens: number; facts: Fact[]; request: SpanSummaryRequest }> => {
    const span = await deps.originals(messageIds);
    const facts = await deps.factsOf(span);
    const request: SpanSummaryRequest = {
      kind: 'history',
      span,
      guide: input.guide,
      targetTokens,
      ...(focus ? { focus } : {}),
      references: referencesFor(messageIds, input),
      facts,
      besideLedger: true,
      ...(conversation ? { conversation } : {}),
    };
    let summary = await summarize(request, cancellation);
    let tokens = await deps.countText(summary.text);
    if (tokens > targetTokens * TARGET_TOLERANCE) {
      fallbackReasons.push(`the summary by ${summary.summarizedBy} took ${tokens} tokens for a target of ${targetTokens}`);
      summary = await deps.floor(request, cancellation);
      tokens = await deps.countText(summary.text);
    }
    if (summary.fallbackReason) fallbackReasons.push(summary.fallbackReason);
    return { span, summary, tokens, facts, request };
  };

  const now = deps.now();
  const fresh = await write(
    input.plan.messageIds,
    targetTokensFor(0, input.checkpointTokens),
    deps.summarize,
    input.focus,
    input.conversation,
  );
  const { span, ...brief } = fresh.request;
  const summaryRequestTokens = input.conversation
    ? conversationTokens(input.conversation) + (await deps.countText(conversationQuestion(brief, input.conversation)))
    : await deps.countText(buildSummaryPrompt({ ...brief, messages: await span.messages() }));
  const created = checkpointFrom({
    id: deps.newId(),
    age: 0,
    messageIds: input.plan.messageIds,
    span: fresh.span,
    summary: fresh.summary,
    tokens: fresh.tokens,
    originalTokens: input.plan.tokens,
    createdAt: now,
    compressionCount: 1,
    compressionNumber: input.compressionNumber,
    deps,
  });

  const aged: { from: readonly Checkpoint[]; to: Checkpoint }[] = [];
  const kept: Checkpoint[] = [];
  const written: WrittenCheckpoint[] = [{ checkpoint: created, facts: fresh.facts }];
  for (const step of planAging(input.existing)) {
    if (isNoOp(step)) {
      kept.push(step.replaces[0]);
      continue;
    }
    const first = step.replaces[0];
    const rewritten = await write(step.messageIds, targetTokensFor(step.age, input.checkpointTokens), deps.floor);
    const to = checkpointFrom({
      id: step.replaces.length === 1 ? first.id : deps.newId(),
      age: step.age,
      messageIds: step.messageIds,
      span: rewritten.span,
      summary: rewritten.summary,
      tokens: rewritten.tokens,
      originalTokens: step.replaces.reduce((n, c) => n + c.originalTokens, 0),
      createdAt: first.createdAt,
      compressedAt: now,
      compressionCount: Math.max(...step.replaces.map((c) => c.compressionCount)) + 1,
      compressionNumber: first.compressionNumber,
      deps,
    });
    aged.push({ from: step.replaces, to });
    kept.push(to);
    written.push({ checkpoint: to, facts: rewritten.facts });
  }
  return {
    basis: basisOf(input.existing, input.plan),
    plan: input.plan,
    checkpoints: [...kept, created],
    created,
    aged,
    fallbackReasons,
    written,
    summaryRequestTokens,
    ...(input.conversation ? { conversation: input.conversation } : {}),
  };
}

function referencesFor(messageIds: readonly string[], input: CheckpointingInputs): RecoveryReferences {
  return {
    archive: input.archivePath,
    offloaded: input.offloadedFolder,
    firstMessageId: messageIds[0] ?? '',
    lastMessageId: messageIds[messageIds.length - 1] ?? '',
  };
}

interface CheckpointParts {
  readonly id: string;
  readonly age: Checkpoint['age'];
  readonly messageIds: readonly string[];
  readonly span: OriginalSpan;
  readonly summary: WrittenSummary;
  readonly tokens: number;
  readonly originalTokens: number;
  readonly createdAt: number;
  readonly compressedAt?: number;
  readonly compressionCount: number;
  readonly compressionNumber: number;
  readonly deps: CheckpointingDeps;
}

/** Decisions, files and next steps come from the summary's markers and the range's own tool calls. */
function checkpointFrom(p: CheckpointParts): Checkpoint {
  const markers = parseMarkers(p.summary.text);
  const tools = p.span.record;
  const first = p.deps.position(p.messageIds[0] ?? '');
  const last = p.deps.position(p.messageIds[p.messageIds.length - 1] ?? '');
  return {
    id: p.id,
    age: p.age,
    range: rangeLabel(first, last),
    messageIds: p.messageIds,
    summary: p.summary.text,
    summarizedBy: p.summary.summarizedBy,
    createdAt: p.createdAt,
    ...(p.compressedAt !== undefined ? { compressedAt: p.compressedAt } : {}),
    originalTokens: p.originalTokens,
    currentTokens: p.tokens,
    compressionCount: p.compressionCount,
    compressionNumber: p.compressionNumber,
    keyDecisions: markers.filter((m) => m.kind === 'decision').map((m) => m.text),
    filesModified: tools.files.filter((f) => f.actions.some((a) => a !== 'read')).map((f) => f.path),
    nextSteps: markers.filter((m) => m.kind === 'next').map((m) => m.text),
  };
}
