/**
 * Answers a request through the wrapped model, handling ctx's recovery tools inside: when the
 * model calls one that ctx added (the caller did not offer it), ctx runs it, adds the call and its
 * result to the request and asks again, so the caller only ever sees tools it offered. Text and
 * the caller's tool calls are forwarded as they arrive.
 */
import { errorMessage } from '../errors';
import type { Cancellation } from '../cancellation';
import type { ContextSession } from '../session/contextSession';
import { estimateTokens } from '../tokens/estimate';
import { message, textBlock, toolResultBlock, type Block, type ToolCallBlock } from '../types';
import type { Outgoing } from './outgoing';
import type { RelayPorts } from './relayPorts';
import { readUntilCancelled } from './untilCancelled';

/** Most rounds in which the model may call ctx's recovery tools; the last round offers none, so the model answers. */
export const MAX_RECOVERY_ROUNDS = 3;
/** A recovery result keeps at least this many characters, even when the window is nearly full. */
export const MIN_RECOVERY_RESULT_CHARS = 2_000;
/** Characters per token assumed when a result is cut to the room left: fewer than usual, to stay on the safe side. */
const CHARS_PER_TOKEN_WHEN_CUTTING = 3;

export interface AnswerInput<Raw, Tool> {
  readonly session: ContextSession;
  readonly messages: readonly Outgoing<Raw>[];
  readonly callerTools: readonly Tool[];
  /** Whether ctx's recovery tools are offered (something was compressed away). */
  readonly offerRecovery: boolean;
  /** Tokens left in the budget for recovery results. */
  readonly roomTokens: number;
  readonly cancellation: Cancellation;
}

export interface AnswerOutcome {
  /** Requests sent to the wrapped model. */
  readonly rounds: number;
  /** Recovery tool calls ctx answered. */
  readonly recoveryCalls: number;
  readonly cancelled: boolean;
}

export async function answerWithRecovery<Raw, Tool, Part>(
  input: AnswerInput<Raw, Tool>,
  ports: RelayPorts<Raw, Tool, Part>,
): Promise<AnswerOutcome> {
  const offered = new Set(input.callerTools.map((t) => ports.toolName(t)));
  const added = input.offerRecovery ? ports.recoveryTools.filter((t) => !offered.has(ports.toolName(t))) : [];
  const ours = new Set(added.map((t) => ports.toolName(t)));
  let messages = input.messages;
  let room = input.roomTokens;
  let recoveryCalls = 0;
  for (let round = 1; ; round++) {
    const withRecovery = ours.size > 0 && round < MAX_RECOVERY_ROUNDS;
    const stream = await ports.send(messages, withRecovery ? [...input.callerTools, ...added] : input.callerTools, input.cancellation);
    const text: string[] = [];
    const held: ToolCallBlock[] = [];
    let forwardedCalls = 0;
    const ended = await readUntilCancelled(stream, input.cancellation, (p) => {
      if (p.kind === 'toolCall' && withRecovery && ours.has(p.call.name)) {
        held.push(p.call);
        return;
      }
      if (p.kind === 'toolCall') forwardedCalls++;
      if (p.kind === 'text') text.push(p.text);
      ports.report(p.part);
    });
    if (ended === 'cancelled') return { rounds: round, recoveryCalls, cancelled: true };
    if (held.length === 0) return { rounds: round, recoveryCalls, cancelled: false };
    if (forwardedCalls > 0) {
      // The caller runs its own calls and sends the history back without ours: ours cannot be answered.
      ports.logger.info(`The model called ${held.map((c) => c.name).join(', ')} next to the caller's tools; those calls were left out.`);
      return { rounds: round, recoveryCalls, cancelled: false };
    }
    const results: Block[] = [];
    for (const call of held) {
      const maxChars = Math.max(MIN_RECOVERY_RESULT_CHARS, room * CHARS_PER_TOKEN_WHEN_CUTTING);
      const { content, isError } = await runRecovery(input.session, call, ports);
      const clipped = content.length > maxChars ? `${content.slice(0, maxChars)}\n[… cut to fit the context window]` : content;
      room = Math.max(0, room - estimateTokens(clipped));
      results.push(toolResultBlock(call.id, clipped, isError, call.name));
    }
    recoveryCalls += held.length;
    messages = [
      ...messages,
      {
        kind: 'engine',
        message: message(`ctx-recovery-a${round}`, 'assistant', [...(text.length ? [textBlock(text.join(''))] : []), ...held]),
      },
      { kind: 'engine', message: message(`ctx-recovery-t${round}`, 'tool', results) },
    ];
  }
}

async function runRecovery<Raw, Tool, Part>(
  session: ContextSession,
  call: ToolCallBlock,
  ports: RelayPorts<Raw, Tool, Part>,
): Promise<{ content: string; isError: boolean }> {
  try {
    return { content: await ports.runRecoveryTool(session, call), isError: false };
  } catch (e) {
    return { content: `${call.name} failed: ${errorMessage(e)}`, isError: true };
  }
}
