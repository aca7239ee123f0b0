/**
 * Where a request's tokens go, from the engine's own measurement: the context message's tokens by
 * the section each of its blocks belongs to, each live message's tokens split into its own content
 * and its tool results, and what is left of each message (its framing) and of the whole request
 * (the reply priming). The parts add up to the measured total exactly.
 */
import { CONTEXT_MESSAGE_ID } from '../model/frozenContext';
import type { ContextSection } from '../model/contextSection';
import type { Message } from '../types';
import type { DashboardInput } from './dashboardInput';

/** A section of the context message and its tokens. */
export interface SectionTokens {
  readonly section: ContextSection;
  readonly tokens: number;
}

/** A live message's tokens: its own text and calls, each tool result, and its framing. */
export interface MessageTokens {
  readonly message: Message;
  /** 0-based position in the live messages. */
  readonly index: number;
  /** Its text and tool calls. */
  readonly own: number;
  /** Each tool result it holds, by call id. */
  readonly results: ReadonlyMap<string, number>;
  /** The sum of `results`. */
  readonly resultTokens: number;
  /** The message's framing (and its tool calls' framing). */
  readonly framing: number;
  /** Everything: own + results + framing, as measured. */
  readonly total: number;
}

export interface ContextBreakdown {
  readonly sections: readonly SectionTokens[];
  readonly messages: readonly MessageTokens[];
  /** Framing of the context message and the request (reply priming), not in any part. */
  readonly framing: number;
  readonly total: number;
}

/** Most messages hold no tool result: they share one empty map. */
const NO_RESULTS: ReadonlyMap<string, number> = new Map();

export function contextBreakdown(input: DashboardInput): ContextBreakdown {
  const { view, blockTokens } = input;
  const head = view.messages[0]?.id === CONTEXT_MESSAGE_ID ? view.messages[0] : undefined;
  const sections = head ? sectionTokens(head, view.sections, blockTokens) : [];
  let framing = view.measured.total;
  if (head) framing -= sections.reduce((n, s) => n + s.tokens, 0);
  const messages: MessageTokens[] = [];
  const live = head ? view.messages.slice(1) : view.messages;
  live.forEach((message, index) => {
    const total = view.measured.messageTokens[head ? index + 1 : index] ?? 0;
    let own = 0;
    let resultSum = 0;
    let results: Map<string, number> | undefined;
    for (const block of message.blocks) {
      const tokens = blockTokens(block);
      if (block.type !== 'toolResult') own += tokens;
      else {
        results ??= new Map();
        results.set(block.callId, (results.get(block.callId) ?? 0) + tokens);
        resultSum += tokens;
      }
    }
    const messageFraming = Math.max(0, total - own - resultSum);
    messages.push({ message, index, own, results: results ?? NO_RESULTS, resultTokens: resultSum, framing: messageFraming, total });
    framing -= own + resultSum;
  });
  return { sections, messages, framing: Math.max(0, framing), total: view.measured.total };
}

/** Each section's tokens: the context message has one block a section, in order. */
function sectionTokens(head: Message, sections: readonly ContextSection[], blockTokens: DashboardInput['blockTokens']): SectionTokens[] {
  return sections.map((section, i) => {
    const block = head.blocks.at(i);
    return { section, tokens: block === undefined ? 0 : blockTokens(block) };
  });
}
