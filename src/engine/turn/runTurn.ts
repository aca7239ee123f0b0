/**
 * One turn, the same for every host (the `@ctx` participant, the ctx models, the replay):
 *
 *   add → prepare → send → take in the answer → run the turn's tool calls → (prepare →) send … → end
 *
 * 1. **add**: the caller's new messages join their session (tier 1 on arrival) — `ports.admit`.
 * 2. **prepare**: the session prepares the request (`requestPreparation.ts`: tiers 2 and 3, the
 *    ledger, the checkpoints) within the budget; a request is never sent over it: when the steps
 *    leave the context above the budget, everything but the latest messages is compressed first.
 * 3. **send**: the request goes to the model (what it reuses of the one before is recorded for the
 *    prompt cache's figures); its answer streams back and is forwarded as it arrives, except the calls
 *    the turn runs itself (`roundAnswer.ts`).
 * 4. **take in the answer**: it joins the session, or stays with the caller (`TurnModel.answersJoin`).
 * 5. **tools**: the held calls run (`toolRound.ts`); their results join the session (and the next
 *    round prepares again) or are added to the next request, and the turn sends again, up to
 *    `maxRounds` requests.
 * 6. **end**: when the answer joined the session, the context is measured as it now stands.
 *
 * Every step emits what it did (`sessionEvents.ts`), so the UI never needs to be told by hand. A
 * new step is one change here, in its place in `turnSteps`/`runRounds` below, and every host has it.
 *
 * **The cancellation rule**: the caller's messages are always taken in (nothing said is lost). From
 * then on the signal is checked before each step (prepare, send, each tool call, the next round)
 * and while the answer streams; once it is set no further step starts, what was already said is
 * kept (a partial answer joins the session like a whole one), and the turn ends with the outcome
 * `cancelled` and the step that did not run. Tier 3 gets the same signal and leaves the context as
 * it was. A cancellation, and a model's failure, are outcomes, never thrown; only a failure of ctx
 * itself before the first request (add, prepare) is thrown, so a host can still go without ctx.
 */
import type { TurnOptions } from '../checkpoints/turnOptions';
import { newMessageId } from '../ids';
import type { ContextSession } from '../session/contextSession';
import type { PreparedContext } from '../model/preparedContext';
import { message, textBlock, type Block, type Message, type ToolResultBlock } from '../types';
import { readRound, type RoundAnswer } from './roundAnswer';
import { compressionProgress, whileCompressing } from './sessionWork';
import { runToolRound } from './toolRound';
import type { TurnEnd, TurnOutcome, TurnStage } from './turnOutcome';
import type { TurnModel, TurnPorts } from './turnPorts';

/** What the turn knows once the context of its first request is ready. */
interface Ready {
  readonly session: ContextSession;
  readonly options: TurnOptions;
  readonly prepared?: PreparedContext;
}

/** Runs one turn; see the header for the steps and the cancellation rule. */
export async function runTurn<Part>(ports: TurnPorts<Part>): Promise<TurnOutcome> {
  const ready = await ports.admit(async ({ session, events }): Promise<Ready> => {
    ports.emit({ kind: 'added', session, events });
    const options = compressionProgress(ports.emit, session, { ...(await ports.turnOptions(session)), cancellation: ports.cancellation });
    if (ports.cancellation.isCancellationRequested) return { session, options };
    return { session, options, prepared: await prepare(ports, session, options) };
  });
  const { session, options } = ready;
  const model = ports.model?.(session);
  let outcome: TurnOutcome;
  try {
    if (!ready.prepared) outcome = { session, end: cancelled('prepare'), rounds: 0, toolCalls: 0 };
    else if (!model) outcome = { session, end: { kind: 'answered' }, rounds: 0, toolCalls: 0, prepared: ready.prepared };
    else outcome = await runRounds(ports, model, session, options, ready.prepared);
  } finally {
    // The answer joined the session: the figures follow the context as it now stands.
    if (model?.answersJoin === 'session') {
      ports.emit({ kind: 'prepared', session, prepared: await session.measure(ports.budget) });
    }
  }
  ports.emit({ kind: 'turnEnded', session, outcome });
  return outcome;
}

/** Step 2: the steps before a request, then a compression if the request would still be over its budget. */
async function prepare<Part>(ports: TurnPorts<Part>, session: ContextSession, options: TurnOptions): Promise<PreparedContext> {
  await ports.beforePrepare?.(session);
  return whileCompressing(ports.emit, session, async () => {
    const prepared = await session.prepare(ports.budget, options);
    ports.emit({ kind: 'prepared', session, prepared });
    if (!ports.model || prepared.tokens <= ports.budget || ports.cancellation.isCancellationRequested) return prepared;
    // The model would refuse the request: compress everything but the latest messages now.
    ports.logger.warn(
      `Session ${session.id} is over its budget after the tiers (${prepared.tokens} of ${ports.budget} tokens); compressing now.`,
    );
    const compressed = await session.compress(ports.budget, options);
    ports.emit({ kind: 'prepared', session, prepared: compressed });
    return compressed;
  });
}

/** Steps 3 to 5, round after round. */
async function runRounds<Part>(
  ports: TurnPorts<Part>,
  model: TurnModel<Part>,
  session: ContextSession,
  options: TurnOptions,
  first: PreparedContext,
): Promise<TurnOutcome> {
  const { cancellation } = ports;
  let prepared = first;
  /** The turn's own tool exchange, kept in the request only (`answersJoin: 'request'`). */
  let exchange: Message[] = [];
  let room = Math.max(0, ports.budget - first.tokens);
  let toolCalls = 0;
  const end = (e: TurnEnd, rounds: number): TurnOutcome => ({ session, end: e, rounds, toolCalls, prepared });
  for (let round = 0; ; round++) {
    if (round > 0 && model.answersJoin === 'session') {
      if (cancellation.isCancellationRequested) return end(cancelled('prepare'), round);
      prepared = await prepare(ports, session, options);
    }
    if (cancellation.isCancellationRequested) return end(cancelled('send'), round);
    const messages = [...prepared.messages, ...exchange];
    await session.recordSent(messages);
    const answer = await readRound(model, () => model.send(messages, round), round, cancellation);
    await takeIn(ports, model, session, answer, round);
    if (answer.ended === 'cancelled') return end(cancelled('send'), round + 1);
    if (answer.ended === 'failed') return end({ kind: 'failed', error: answer.error }, round + 1);
    if (answer.held.length === 0) return end({ kind: 'answered' }, round + 1);
    if (answer.forwarded.length > 0) {
      // The caller runs its own calls and sends the history back without the turn's: those cannot be answered.
      ports.logger.info(
        `The model called ${answer.held.map((c) => c.name).join(', ')} next to the caller's tools; those calls were left out.`,
      );
      return end({ kind: 'answered' }, round + 1);
    }
    const tools = await runToolRound(model, session, answer.held, room, cancellation);
    toolCalls += tools.ran;
    room = tools.room;
    if (model.answersJoin === 'session') {
      await addToSession(
        ports,
        session,
        tools.results.map((r) => message(newMessageId('t', ports.clock.now()), 'tool', [r], ports.clock.now())),
      );
    } else {
      exchange = [...exchange, ...roundExchange(round, answer, tools.results)];
    }
    if (cancellation.isCancellationRequested) return end(cancelled(tools.ran < answer.held.length ? 'tools' : 'prepare'), round + 1);
    if (round + 1 >= model.maxRounds) return end({ kind: 'roundLimit' }, round + 1);
  }
}

/** Step 4: the answer (whole, partial or cut short) joins the session when the session owns the conversation. */
async function takeIn<Part>(ports: TurnPorts<Part>, model: TurnModel<Part>, session: ContextSession, answer: RoundAnswer, round: number) {
  if (model.answersJoin === 'session') {
    // Calls of an answer cut short are left out: no result will ever follow them.
    const calls = answer.ended === 'done' ? [...answer.held, ...answer.forwarded] : [];
    const blocks: Block[] = [...(answer.text ? [textBlock(answer.text)] : []), ...calls];
    const at = ports.clock.now();
    if (blocks.length > 0) await addToSession(ports, session, [message(newMessageId('a', at), 'assistant', blocks, at)]);
  }
  ports.emit({ kind: 'answered', session, round, toolCalls: answer.held.length });
}

async function addToSession<Part>(ports: TurnPorts<Part>, session: ContextSession, messages: readonly Message[]): Promise<void> {
  const events = await session.add(messages);
  ports.emit({ kind: 'added', session, events });
}

/** The turn's own calls and their results, as the next request of a turn whose answers stay with the caller carries them. */
function roundExchange(round: number, answer: RoundAnswer, results: readonly ToolResultBlock[]): Message[] {
  return [
    message(`ctx-round${round + 1}-a`, 'assistant', [...(answer.text ? [textBlock(answer.text)] : []), ...answer.held]),
    message(`ctx-round${round + 1}-t`, 'tool', results),
  ];
}

function cancelled(stage: TurnStage): TurnEnd {
  return { kind: 'cancelled', stage };
}
