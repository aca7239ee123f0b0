/**
 * One round's answer, read as it streams: text and every call are forwarded as they arrive, except
 * the calls the turn runs itself, which are held for it.
 */
import type { Cancellation } from '../cancellation';
import type { ToolCallBlock } from '../types';
import type { AnswerPart } from './answerPart';
import type { TurnModel } from './turnPorts';
import { readUntilCancelled } from './untilCancelled';

export interface RoundAnswer {
  readonly text: string;
  /** Calls the turn runs. */
  readonly held: readonly ToolCallBlock[];
  /** Calls passed on to the caller. */
  readonly forwarded: readonly ToolCallBlock[];
  /** How reading ended; `failed` keeps the model's error. */
  readonly ended: 'done' | 'cancelled' | 'failed';
  readonly error?: unknown;
}

/** Sends the round's request and reads its answer; a failure to send or to read is part of the answer, not thrown. */
export async function readRound<Part>(
  model: TurnModel<Part>,
  send: () => Promise<AsyncIterable<AnswerPart<Part>>>,
  round: number,
  cancellation: Cancellation,
): Promise<RoundAnswer> {
  const text: string[] = [];
  const held: ToolCallBlock[] = [];
  const forwarded: ToolCallBlock[] = [];
  const answer = (ended: RoundAnswer['ended'], error?: unknown): RoundAnswer => ({
    text: text.join(''),
    held,
    forwarded,
    // A failure once the signal came is the cancellation showing through the host (a cancelled request throws).
    ended: ended === 'failed' && cancellation.isCancellationRequested ? 'cancelled' : ended,
    ...(ended === 'failed' ? { error } : {}),
  });
  try {
    const ended = await readUntilCancelled(await send(), cancellation, (p) => {
      if (p.kind === 'toolCall' && model.runs(p.call, round)) {
        held.push(p.call);
        return;
      }
      if (p.kind === 'toolCall') forwarded.push(p.call);
      if (p.kind === 'text') text.push(p.text);
      model.forward(p);
    });
    return answer(ended);
  } catch (e) {
    return answer('failed', e);
  }
}
