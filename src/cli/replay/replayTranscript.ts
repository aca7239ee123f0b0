/**
 * Replays an imported conversation through a ContextSession with the turn every host uses
 * (`engine/turn/runTurn.ts`), one turn per message: the message arrives through `add` (tier 1 on
 * arrival), then the next request is prepared (tier 2, checkpoints, the watermark, and whatever
 * steps the turn gains later). The turn has no model: the answers are in the transcript.
 */
import { type Message, toolCalls } from '../../engine/host/messages';
import {
  type Clock,
  type Logger,
  NEVER_CANCELLED,
  silentLogger,
  type Store,
  systemClock,
  type TokenCounter,
} from '../../engine/host/ports';
import {
  budgetFor,
  ContextSession,
  EMPTY_CACHE_TALLY,
  IGNORE_EVENTS,
  type PreparedContext,
  pricedInput,
  runTurn,
  type SessionDeps,
  shortHashOfParts,
} from '../../engine/host/session';
import { DEFAULT_OPTIONS, type EngineOptions } from '../../engine/host/settings';
import { newSessionId } from '../../engine/host/storage';
import type { TranscriptFormat } from '../import/importTypes';
import { MessageFeed } from './messageFeed';
import { ReplayClock } from './replayClock';
import type { ReplayFigures, ReplayProgress, SentRequestFigures } from './replayFigures';
import { TranscriptWorkspace } from './transcriptWorkspace';

/** The conversation to replay: one session of an import. */
export interface ReplayInput {
  readonly format: TranscriptFormat;
  /** The messages in order; a draining feed lets go of each one once it is replayed. */
  readonly messages: readonly Message[] | MessageFeed;
}

export interface ReplayOptions {
  /** The model's maximum input tokens; the budget is derived from it as the host does. */
  readonly maxInputTokens: number;
  /** @default DEFAULT_ANSWER_RESERVE_TOKENS */
  readonly answerReserveTokens?: number;
  /** When above 0, the budget is at most this, as `ctx.budget.ceilingTokens` caps it in the extension. @default no ceiling */
  readonly ceilingTokens?: number;
  /** Where the session's archive, offloaded results and state go. */
  readonly store: Store;
  readonly counter: TokenCounter;
  /** @default DEFAULT_OPTIONS */
  readonly engine?: EngineOptions;
  /** @default silentLogger */
  readonly logger?: Logger;
  /** Called after each message's request is prepared. */
  readonly onProgress?: (progress: ReplayProgress) => void;
  /**
   * Time used when no message carries a timestamp (the command line gives the transcript file's
   * modification time). @default {@link TIMELESS_REPLAY_START}
   */
  readonly startAt?: number;
  /** Measures the replay's duration. @default systemClock */
  readonly stopwatch?: Clock;
  /** Replaces or adds session dependencies (the ones tiers added later may need). */
  readonly deps?: Partial<SessionDeps>;
}

export interface ReplayResult {
  readonly figures: ReplayFigures;
  /** The replayed session, saved; the caller disposes it. */
  readonly session: ContextSession;
  /** The last request as it would be sent; undefined only for an empty conversation. */
  readonly final: PreparedContext | undefined;
  /** The workspace the transcript's writes left. */
  readonly workspace: TranscriptWorkspace;
}

/**
 * When a transcript carries no time and the caller gives none, the replay starts at the Unix epoch:
 * never the current time, which would name the session and its offloaded files anew at each replay
 * and, through their paths in the context, change what the same conversation is counted at.
 */
export const TIMELESS_REPLAY_START = 0;

/** Replays the conversation and returns its figures and the session it left. */
export async function replayTranscript(input: ReplayInput, options: ReplayOptions): Promise<ReplayResult> {
  const engine = options.engine ?? DEFAULT_OPTIONS;
  const stopwatch = options.stopwatch ?? systemClock;
  const feed = input.messages instanceof MessageFeed ? input.messages : MessageFeed.of(input.messages);
  const clock = new ReplayClock(firstTime(feed) ?? options.startAt ?? TIMELESS_REPLAY_START);
  const workspace = new TranscriptWorkspace();
  const deps: SessionDeps = {
    store: options.store,
    counter: options.counter,
    files: workspace,
    logger: options.logger ?? silentLogger,
    clock,
    ...options.deps,
  };
  // The same conversation replayed gets the same session id, so it gives the same result every time.
  const fingerprint = shortHashOfParts(fingerprintParts(feed));
  const session = ContextSession.create(engine, deps, newSessionId(clock.now(), fingerprint));
  const budget = budgetFor({
    maxInputTokens: options.maxInputTokens,
    answerReserveTokens: options.answerReserveTokens,
    ceilingTokens: options.ceilingTokens,
  });

  const started = stopwatch.now();
  let final: PreparedContext | undefined;
  let peakTokens = 0;
  let watermarked = 0;
  // The conversation's own size, counted message by message after its turn (outside the replay's time), so the
  // messages need not be held until the end and the counter's cache cannot make a turn look faster.
  let inputTokens = (await options.counter.measure([])).total;
  let calls = 0;
  let measuring = 0;
  const sent: SentRequestFigures[] = [];
  const total = feed.count;
  for (let index = 0, message = feed.take(); message !== undefined; index++, message = feed.take()) {
    const arrived = message;
    // The request prepared before an answer is the one that was sent for it.
    if (arrived.role === 'assistant' && final) {
      const reuse = await session.recordSent(final.messages);
      sent.push({ ...reuse, pricedInput: Math.round(pricedInput(reuse) * 100) / 100 });
    }
    let toolBlocksBefore = 0;
    const turn = await runTurn<never>({
      cancellation: NEVER_CANCELLED,
      budget,
      clock,
      logger: deps.logger,
      emit: IGNORE_EVENTS,
      admit: async (next) => {
        clock.arrive(arrived.at);
        // The tools ran before their results arrive, so what they wrote is on disk from here on.
        workspace.apply(arrived);
        const events = await session.add([arrived]);
        for (const call of toolCalls(arrived)) if (engine.checkpointTools.includes(call.name)) session.requestCheckpoint(call.name);
        // Watermark events say in words how many blocks went; the difference across the request counts them.
        toolBlocksBefore = countToolBlocks(session.messages);
        return next({ session, events });
      },
      turnOptions: async () => ({}),
    });
    if (!turn.prepared) throw new Error('A replayed turn, which nothing cancels, ended before its request was prepared.');
    final = turn.prepared;
    // Background checkpoint preparation settles before the next message, so a replay gives the same result every time.
    await session.whenPreparationSettled();
    if (final.events.some((e) => e.kind === 'watermark')) watermarked += toolBlocksBefore - countToolBlocks(final.messages);
    peakTokens = Math.max(peakTokens, final.tokens);
    const measureStart = stopwatch.now();
    inputTokens += await options.counter.countMessage(arrived);
    calls += toolCalls(arrived).length;
    measuring += stopwatch.now() - measureStart;
    options.onProgress?.({ done: index + 1, total, tokens: final.tokens, level: final.level });
  }
  if (!final) await session.save();
  const ms = stopwatch.now() - started - measuring;

  const empty = await options.counter.measure([]);
  const state = session.state;
  const figures: ReplayFigures = {
    format: input.format,
    messages: total,
    toolCalls: calls,
    inputTokens,
    maxInputTokens: options.maxInputTokens,
    ceilingTokens: options.ceilingTokens && options.ceilingTokens > 0 ? options.ceilingTokens : 0,
    budget,
    peakTokens,
    finalTokens: final?.tokens ?? empty.total,
    finalUsage: final?.usage ?? 0,
    finalLevel: final?.level ?? 'GREEN',
    offloaded: state.offloads.length,
    truncated: state.truncations.length,
    watermarked,
    checkpoints: state.checkpoints.length,
    checkpointsMade: state.checkpointsMade,
    snapshots: (await session.listSnapshots()).length,
    promptCache: state.promptCache ?? EMPTY_CACHE_TALLY,
    requests: sent,
    ms,
  };
  return { figures, session, final, workspace };
}

/** The time of the first message that has one. */
function firstTime(feed: MessageFeed): number | undefined {
  for (const m of feed.remaining()) if (m.at !== undefined) return m.at;
  return undefined;
}

/** What the session id's fingerprint is made of, one message at a time, so no text of the whole conversation is built. */
function* fingerprintParts(feed: MessageFeed): Generator<string> {
  for (const m of feed.remaining()) yield `${m.role} ${m.at ?? ''} ${JSON.stringify(m.blocks)}`;
}

function countToolBlocks(messages: readonly Message[]): number {
  let count = 0;
  for (const m of messages) for (const b of m.blocks) if (b.type !== 'text') count++;
  return count;
}
