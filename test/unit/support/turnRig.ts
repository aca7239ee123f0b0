/**
 * A turn over a real in-memory session and a scripted stand-in for the model: each request takes the
 * next scripted answer; what was sent, forwarded, run and emitted is recorded.
 */
import { CancellationSource } from '../../../src/engine/cancellation';
import { newMessageId } from '../../../src/engine/ids';
import type { TurnOptions } from '../../../src/engine/session/contextSession';
import type { AnswerPart } from '../../../src/engine/turn/answerPart';
import { runTurn } from '../../../src/engine/turn/runTurn';
import type { SessionEvent } from '../../../src/engine/turn/sessionEvents';
import type { TurnOutcome } from '../../../src/engine/turn/turnOutcome';
import type { ToolOutput, TurnModel, TurnPorts } from '../../../src/engine/turn/turnPorts';
import { message, textBlock, toolCallBlock, type Message, type ToolCallBlock } from '../../../src/engine/types';
import { sessionRig, type SessionRig } from './session';

/** One scripted answer: its parts in order; `fail` makes the stream throw there. */
export type ScriptedAnswer = readonly (AnswerPart<string> | { readonly kind: 'fail'; readonly error: Error })[];

export const say = (value: string): AnswerPart<string> => ({ kind: 'text', text: value, part: `text:${value}` });
export const callTool = (id: string, name: string, input: Record<string, unknown> = {}): AnswerPart<string> => ({
  kind: 'toolCall',
  call: toolCallBlock(id, name, input),
  part: `call:${name}`,
});

export interface TurnRigOptions {
  readonly answersJoin?: TurnModel<string>['answersJoin'];
  readonly maxRounds?: number;
  readonly budget?: number;
  /** Whether the turn has a model at all. @default true */
  readonly withModel?: boolean;
  /** Calls the turn runs itself. @default every call */
  readonly runs?: (call: ToolCallBlock, round: number) => boolean;
}

export class TurnRig {
  readonly rig: SessionRig;
  readonly cancellation = new CancellationSource();
  readonly events: SessionEvent[] = [];
  readonly sent: (readonly Message[])[] = [];
  readonly forwarded: string[] = [];
  readonly ran: string[] = [];
  private readonly answers: ScriptedAnswer[] = [];
  /** Hooks to act at a given moment (cancel, mostly). */
  afterPart: (part: string) => void = () => undefined;
  onTool: (call: ToolCallBlock) => void = () => undefined;
  onTurnOptions: () => void = () => undefined;
  onBeforePrepare: () => void = () => undefined;
  toolOutput: (call: ToolCallBlock) => ToolOutput = (call) => ({ content: `result of ${call.name}`, isError: false });

  constructor(private readonly options: TurnRigOptions = {}) {
    this.rig = sessionRig();
  }

  get session() {
    return this.rig.session;
  }

  /** Queues the stand-in's answers, one per request it will get. */
  script(...answers: ScriptedAnswer[]): this {
    this.answers.push(...answers);
    return this;
  }

  /** The kinds of the events emitted, in order. */
  kinds(): string[] {
    return this.events.map((e) => e.kind);
  }

  /** Runs a turn for a user message. */
  run(text = 'Fix the parser, please.'): Promise<TurnOutcome> {
    return runTurn(this.ports(text));
  }

  private ports(text: string): TurnPorts<string> {
    const { session, clock, logger } = this.rig;
    const model: TurnModel<string> = {
      answersJoin: this.options.answersJoin ?? 'session',
      maxRounds: this.options.maxRounds ?? 5,
      send: async (messages) => {
        this.sent.push(messages);
        return this.stream(this.answers.shift() ?? [say('(no scripted answer)')]);
      },
      runs: this.options.runs ?? (() => true),
      runTool: async (_session, call) => {
        this.ran.push(call.id);
        this.onTool(call);
        return this.toolOutput(call);
      },
      forward: (part) => this.forwarded.push(part.part),
    };
    return {
      cancellation: this.cancellation.token,
      budget: this.options.budget ?? 50_000,
      clock,
      logger,
      emit: (e) => this.events.push(e),
      admit: async (next) => {
        const at = clock.now();
        const events = await session.add([message(newMessageId('u', at), 'user', [textBlock(text)], at)]);
        return next({ session, events });
      },
      turnOptions: async (): Promise<TurnOptions> => {
        this.onTurnOptions();
        return {};
      },
      beforePrepare: async () => this.onBeforePrepare(),
      ...(this.options.withModel === false ? {} : { model: () => model }),
    };
  }

  private async *stream(answer: ScriptedAnswer): AsyncIterable<AnswerPart<string>> {
    for (const part of answer) {
      await new Promise((resolve) => setImmediate(resolve));
      if (part.kind === 'fail') throw part.error;
      yield part;
      this.afterPart(part.part);
    }
  }
}
