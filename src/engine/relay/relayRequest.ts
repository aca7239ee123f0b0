/**
 * One request to a ctx model: the conversation is matched to its session and only what is new is
 * added (tier 1 on arrival), the session prepares the context within the wrapped model's window
 * less what the caller's instructions and tool definitions take (tiers 2 and 3, the ledger,
 * checkpoints), and the result goes to the wrapped model with the caller's tools, its answer
 * streaming back as it arrives. The steps are the turn's (`../turn/runTurn.ts`), as for @ctx.
 */
import { MIN_BUDGET_TOKENS } from '../budget';
import type { RouteKind, Routed } from '../conversation/conversationRouter';
import type { IncomingMessage } from '../conversation/incomingMessage';
import type { PreparedContext } from '../model/preparedContext';
import { messageText, type Message } from '../types';
import { compressedAway } from './compressedAway';
import { callerCompaction } from './callerCompaction';
import { fitAsSent } from './fitAsSent';
import { outgoingMessages, withBreakpoints, type Outgoing } from './outgoing';
import { splitInstructions } from './pinnedInstructions';
import { relayModel, roundTools } from './recoveryRounds';
import type { RelayPorts, RelayRequest } from './relayPorts';
import { runTurn } from '../turn/runTurn';
import { readUntilCancelled } from '../turn/untilCancelled';
import type { Cancellation } from '../cancellation';
import { askingInConversation } from '../summary/conversationSummary';

export interface RelayOutcome {
  /** Requests sent to the wrapped model. */
  readonly rounds: number;
  /** Recovery tool calls ctx answered. */
  readonly recoveryCalls: number;
  readonly cancelled: boolean;
  /** The session the request went to; none when it had no conversation, only instructions. */
  readonly sessionId?: string;
  readonly route?: RouteKind;
  /** Caller messages new to the session. */
  readonly added: number;
  /** Tokens the caller's instructions and tool definitions take, outside the session's budget. */
  readonly fixedTokens: number;
  /** The context of the last request sent. */
  readonly prepared?: PreparedContext;
}

/**
 * Relays one request through the turn (`../turn/runTurn.ts`). The wrapped model's error is thrown
 * as it came, after what it had already said was forwarded.
 */
export async function relayRequest<Raw, Tool, Part>(
  request: RelayRequest<Raw, Tool>,
  ports: RelayPorts<Raw, Tool, Part>,
): Promise<RelayOutcome> {
  const { instructions, conversation: sent } = splitInstructions(request.messages);
  // A caller's compaction request: its prompt goes last, as sent, and never into the session.
  const compaction = callerCompaction(sent);
  const conversation = compaction ? compaction.history : sent;
  const trailing = compaction ? [compaction.prompt] : [];
  const fixedTokens = await fixedTokensOf([...instructions, ...trailing], request.tools, ports);
  const pinned = instructions.map((m) => m.raw);
  if (conversation.length === 0 || (compaction && !compaction.conversational)) {
    if (compaction) {
      ports.logger.info(
        `A caller's own summarization request (${sent.length} messages): sent to the model as it came, outside any session.`,
      );
    }
    const asSent = [...instructions.map((message) => ({ message, system: true })), ...sent.map((message) => ({ message, system: false }))];
    const budget = ports.budgetFor(request.maxInputTokens) - (await fixedTokensOf([], request.tools, ports));
    const fitted = await fitAsSent(asSent, budget, (t) => ports.countText(t), ports.clock.now());
    const answered = await answerDirectly(
      withBreakpoints(fitted, (raw) => ports.cacheMarked(raw)),
      request,
      ports,
    );
    return { ...answered, added: 0, fixedTokens };
  }
  let routed: Routed<Raw> | undefined;
  const session = (messages: readonly Message[]) => outgoingMessages(pinned, messages, (m) => routed?.rawFor(m));
  const outgoing = (messages: readonly Message[]): Outgoing<Raw>[] =>
    withBreakpoints([...session(messages), ...trailing.map((m) => ({ kind: 'caller' as const, raw: m.raw, system: false }))], (raw) =>
      ports.cacheMarked(raw),
    );
  // A summary asked as the conversation's next request goes as the conversation's requests do, without a caller's
  // prompt, with the tools they went with.
  const askInConversation = (messages: readonly Message[], tools: readonly Tool[], cancellation: Cancellation) =>
    ports.ask(
      withBreakpoints(session(messages), (raw) => ports.cacheMarked(raw)),
      tools,
      cancellation,
    );
  // The model's tool calls name the conversation when the caller compacts before it sends their results.
  const answered = (sessionId: string, callIds: readonly string[]) => {
    if (!compaction) ports.router.noteAnswered(sessionId, callIds);
  };
  const outcome = await runTurn<Part>({
    cancellation: request.cancellation,
    budget: Math.max(MIN_BUDGET_TOKENS, ports.budgetFor(request.maxInputTokens) - fixedTokens),
    clock: ports.clock,
    logger: ports.logger,
    emit: ports.emit,
    admit: (next) =>
      ports.router.route(conversation, ports.sessions, (r) => {
        routed = r;
        return next({ session: r.session, events: r.events });
      }),
    turnOptions: async (current) => {
      const options = await ports.turnOptions();
      if (!options.summarizer || !options.summarizerIsConversationModel) return options;
      // The state before this request's preparation chose the tools the conversation's latest requests went with.
      const tools = roundTools(request, ports, compressedAway(current.state), 0);
      return {
        ...options,
        summarizer: askingInConversation(options.summarizer, (messages, cancellation) => askInConversation(messages, tools, cancellation)),
      };
    },
    model: (session) => relayModel(request, ports, compressedAway(session.state), outgoing, (calls) => answered(session.id, calls)),
  });
  if (outcome.end.kind === 'failed') throw outcome.end.error;
  return {
    rounds: outcome.rounds,
    recoveryCalls: outcome.toolCalls,
    cancelled: outcome.end.kind === 'cancelled',
    sessionId: outcome.session.id,
    ...(routed ? { route: routed.kind, added: routed.added } : { added: 0 }),
    fixedTokens,
    ...(outcome.prepared ? { prepared: outcome.prepared } : {}),
  };
}

/**
 * A request of instructions only, or a caller's compaction of a history it rendered itself, has nothing for ctx to
 * manage: it goes as it came, cut to the model's window when the caller measured it against a larger one
 * (`fitAsSent.ts`).
 */
async function answerDirectly<Raw, Tool, Part>(
  messages: readonly Outgoing<Raw>[],
  request: RelayRequest<Raw, Tool>,
  ports: RelayPorts<Raw, Tool, Part>,
): Promise<Pick<RelayOutcome, 'rounds' | 'recoveryCalls' | 'cancelled'>> {
  const stream = await ports.send(messages, request.tools, request.cancellation);
  const ended = await readUntilCancelled(stream, request.cancellation, (p) => ports.report(p.part));
  return { rounds: 1, recoveryCalls: 0, cancelled: ended === 'cancelled' };
}

async function fixedTokensOf<Raw, Tool, Part>(
  instructions: readonly IncomingMessage<Raw>[],
  tools: readonly Tool[],
  ports: RelayPorts<Raw, Tool, Part>,
): Promise<number> {
  let total = 0;
  for (const m of instructions) total += await ports.countText(messageText({ id: '', role: m.role, blocks: m.blocks }));
  for (const t of tools) total += await ports.countText(ports.toolText(t));
  return total;
}
