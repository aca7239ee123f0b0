/**
 * One request to a ctx model: the conversation is matched to its session and only what is new is
 * added (tier 1 on arrival), the session prepares the context within the wrapped model's window
 * less what the caller's instructions and tool definitions take (tiers 2 and 3, the ledger,
 * checkpoints), and the result goes to the wrapped model with the caller's tools, its answer
 * streaming back as it arrives.
 */
import { MIN_BUDGET_TOKENS } from '../budget';
import type { RouteKind } from '../conversation/conversationRouter';
import type { IncomingMessage } from '../conversation/incomingMessage';
import type { PreparedContext } from '../session/contextSession';
import { messageText } from '../types';
import { compressedAway } from './compressedAway';
import { outgoingMessages } from './outgoing';
import { splitInstructions } from './pinnedInstructions';
import { answerWithRecovery, type AnswerOutcome } from './recoveryRounds';
import type { RelayPorts, RelayRequest } from './relayPorts';
import { readUntilCancelled } from './untilCancelled';

export interface RelayOutcome extends AnswerOutcome {
  /** The session the request went to; none when it had no conversation, only instructions. */
  readonly sessionId?: string;
  readonly route?: RouteKind;
  /** Caller messages new to the session. */
  readonly added: number;
  /** Tokens the caller's instructions and tool definitions take, outside the session's budget. */
  readonly fixedTokens: number;
  readonly prepared?: PreparedContext;
}

export async function relayRequest<Raw, Tool, Part>(
  request: RelayRequest<Raw, Tool>,
  ports: RelayPorts<Raw, Tool, Part>,
): Promise<RelayOutcome> {
  const { instructions, conversation } = splitInstructions(request.messages);
  const fixedTokens = await fixedTokensOf(instructions, request.tools, ports);
  const pinned = instructions.map((m) => m.raw);
  if (conversation.length === 0) {
    const answered = await answerDirectly(pinned, request, ports);
    return { ...answered, added: 0, fixedTokens };
  }
  const ready = await ports.router.route(conversation, ports.sessions, async (routed) => {
    const budget = Math.max(MIN_BUDGET_TOKENS, ports.budgetFor(request.maxInputTokens) - fixedTokens);
    const turn = await ports.turnOptions();
    let prepared = await routed.session.prepare(budget, turn);
    if (prepared.tokens > budget) {
      // The wrapped model would refuse the request: compress everything but the latest messages now.
      ports.logger.warn(
        `Session ${routed.session.id} is over its budget after the tiers (${prepared.tokens} of ${budget} tokens); compressing now.`,
      );
      prepared = await routed.session.compress(budget, turn);
    }
    ports.prepared(routed.session, prepared);
    return { routed, prepared, budget, messages: outgoingMessages(pinned, prepared.messages, (m) => routed.rawFor(m)) };
  });
  const { routed, prepared, budget } = ready;
  const answered = await answerWithRecovery(
    {
      session: routed.session,
      messages: ready.messages,
      callerTools: request.tools,
      offerRecovery: compressedAway(routed.session.state),
      roomTokens: Math.max(0, budget - prepared.tokens),
      cancellation: request.cancellation,
    },
    ports,
  );
  return { ...answered, sessionId: routed.session.id, route: routed.kind, added: routed.added, fixedTokens, prepared };
}

/** A request of instructions only has nothing for ctx to manage: it goes as it came. */
async function answerDirectly<Raw, Tool, Part>(
  pinned: readonly Raw[],
  request: RelayRequest<Raw, Tool>,
  ports: RelayPorts<Raw, Tool, Part>,
): Promise<AnswerOutcome> {
  const stream = await ports.send(
    pinned.map((raw) => ({ kind: 'caller', raw, system: true })),
    request.tools,
    request.cancellation,
  );
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
