/**
 * A relay over in-memory ports and a scripted stand-in for the wrapped model: each request takes
 * the next scripted answer, and everything it was sent is recorded.
 */
import { CancellationSource } from '../../../src/engine/cancellation';
import type { Outgoing } from '../../../src/engine/relay/outgoing';
import type { RelayPart, RelayPorts, RelayTurnOptions } from '../../../src/engine/relay/relayPorts';
import { relayRequest, type RelayOutcome } from '../../../src/engine/relay/relayRequest';
import type { ContextSession } from '../../../src/engine/session/contextSession';
import type { PreparedContext } from '../../../src/engine/model/preparedContext';
import type { SessionEvent } from '../../../src/engine/turn/sessionEvents';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import { message, messageText, toolCallBlock, type ToolCallBlock } from '../../../src/engine/types';
import { CharTokenizer } from './fakes';
import type { Caller, CallerMessage } from './callerConversation';
import { routerRig, type RouterRig } from './routerRig';

/** A tool as the stand-in knows it: a name and the text its definition costs. */
export interface FakeTool {
  readonly name: string;
  readonly definition: string;
}

export type Answer = readonly (RelayPart<string> | { readonly kind: 'fail'; readonly error: Error })[];

export const text = (value: string): RelayPart<string> => ({ kind: 'text', text: value, part: `text:${value}` });
export const toolCall = (id: string, name: string, input: Record<string, unknown> = {}): RelayPart<string> => ({
  kind: 'toolCall',
  call: toolCallBlock(id, name, input),
  part: `call:${name}`,
});

export interface SentRequest {
  readonly messages: readonly Outgoing<CallerMessage>[];
  readonly tools: readonly string[];
}

export class RelayRig {
  readonly rig: RouterRig;
  readonly sent: SentRequest[] = [];
  /** The requests whose answer was ctx's own (a summary asked as the conversation's next request). */
  readonly asked: SentRequest[] = [];
  /** What the host gives the turn: none by default, a summarizer when a test sets one. */
  turnOptions: () => Promise<RelayTurnOptions> = async () => ({});
  /** The stand-in's answer to a request of ctx's own. */
  askAnswer = (_request: SentRequest): string => '';
  readonly reported: string[] = [];
  readonly recoveryCalls: ToolCallBlock[] = [];
  /** The context each request carried, as the session prepared it. */
  readonly preparedFor: { session: ContextSession; prepared: PreparedContext }[] = [];
  /** Every event the requests emitted, in order. */
  readonly events: SessionEvent[] = [];
  readonly cancellation = new CancellationSource();
  private readonly answers: Answer[] = [];
  private lastPrepared: { session: ContextSession; prepared: PreparedContext } | undefined;
  /** Called after each part the stand-in yields, to act mid-stream. */
  afterPart: (part: string) => void = () => undefined;
  recoveryAnswer = (call: ToolCallBlock) => `Found for ${JSON.stringify(call.input)}: the port is 8443.`;

  constructor(
    options: Parameters<typeof routerRig>[0] = {},
    private readonly windowTokens = 128_000,
  ) {
    this.rig = routerRig(options);
  }

  /** Queues the stand-in's answers, one per request it will get. */
  script(...answers: Answer[]): this {
    this.answers.push(...answers);
    return this;
  }

  run(messages: readonly Caller[], tools: readonly FakeTool[] = []): Promise<RelayOutcome> {
    return relayRequest({ messages, tools, maxInputTokens: this.windowTokens, cancellation: this.cancellation.token }, this.ports());
  }

  /** Tokens of a recorded request's messages as the wrapped model counts them (four characters a token, with framing). */
  static async tokensOf(request: SentRequest): Promise<number> {
    const messages = request.messages.map((o) => (o.kind === 'engine' ? o.message : message('caller', o.raw.role, o.raw.blocks)));
    return (await new TokenCounter(new CharTokenizer()).measure(messages)).total;
  }

  /** The text of everything a recorded request carried. */
  static textOf(request: SentRequest): string {
    return request.messages
      .map((o) => (o.kind === 'engine' ? messageText(o.message) : o.raw.blocks.map((b) => JSON.stringify(b)).join('\n')))
      .join('\n');
  }

  private ports(): RelayPorts<CallerMessage, FakeTool, string> {
    return {
      router: this.rig.router,
      sessions: this.rig.sessions,
      logger: this.rig.logger,
      clock: this.rig.clock,
      budgetFor: (window) => window - 4_096,
      countText: async (t) => Math.ceil(t.length / 4),
      toolText: (t) => t.definition,
      toolName: (t) => t.name,
      recoveryTools: [
        { name: 'ctx_recover', definition: 'search what was compressed away' },
        { name: 'ctx_read_offloaded', definition: 'read an offloaded result' },
      ],
      runRecoveryTool: async (_session, call) => {
        this.recoveryCalls.push(call);
        return this.recoveryAnswer(call);
      },
      turnOptions: () => this.turnOptions(),
      cacheMarked: (raw) => raw.marker === 'cache-breakpoint',
      send: async (messages, tools) => {
        this.sent.push({ messages, tools: tools.map((t) => t.name) });
        const last = this.lastPrepared;
        if (last && this.preparedFor.at(-1)?.prepared !== last.prepared) this.preparedFor.push(last);
        const answer = this.answers.shift() ?? [text('(no scripted answer)')];
        return this.stream(answer);
      },
      ask: async (messages, tools) => {
        const request = { messages, tools: tools.map((t) => t.name) };
        this.asked.push(request);
        return this.askAnswer(request);
      },
      report: (part) => this.reported.push(part),
      emit: (e) => {
        this.events.push(e);
        if (e.kind === 'prepared') this.lastPrepared = { session: e.session, prepared: e.prepared };
      },
    };
  }

  private async *stream(answer: Answer): AsyncIterable<RelayPart<string>> {
    for (const part of answer) {
      await new Promise((resolve) => setImmediate(resolve));
      if (part.kind === 'fail') throw part.error;
      yield part;
      this.afterPart(part.part);
    }
  }
}
