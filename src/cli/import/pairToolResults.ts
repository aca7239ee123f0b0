/**
 * The last pass of every import: each tool result must answer an earlier call with the same id.
 * Results that answer nothing are kept as user text rather than dropped or left dangling; that
 * text is injected (a tool wrote it, not the user), so markers in it set nothing.
 */
import {
  type Block,
  injectedTextBlock,
  message,
  type Message,
  toolCallBlock,
  toolResultBlock,
  type ToolResultBlock,
} from '../../engine/host/messages';
import type { ImportWarning } from './importTypes';
import type { MessageDraft } from './messageDraft';

/** The frozen messages of one session and what pairing found. */
export interface PairingOutcome {
  readonly messages: Message[];
  readonly toolCalls: number;
  readonly toolResults: number;
  readonly unpairedResults: number;
  readonly unansweredCalls: number;
  readonly warnings: ImportWarning[];
}

/**
 * Freezes drafts into messages and fills each result's `toolName` from its call. A source that
 * reuses a call id (SWE-agent replays do) gets the repeats renamed `<id>~2`, `~3`…, and each result
 * answers the oldest unanswered call of its id. Results with no earlier call (and any stray text
 * in a tool message) move into a user message beside it. Empty drafts produce no message.
 */
export function pairToolResults(drafts: readonly MessageDraft[]): PairingOutcome {
  const calls = new CallRegistry();
  const messages: Message[] = [];
  const warnings: ImportWarning[] = [];
  let toolResults = 0;
  let unpairedResults = 0;

  for (const draft of drafts) {
    if (draft.blocks.length === 0) continue;
    if (draft.role !== 'tool') {
      const blocks = draft.blocks.map((block) => {
        if (block.type !== 'toolCall') return block;
        const id = calls.register(block.id, block.name);
        if (id === block.id) return block;
        warnings.push(located(draft, `tool call id ${block.id} repeats; renamed ${id}`));
        return toolCallBlock(id, block.name, block.input);
      });
      messages.push(message(draft.id, draft.role, blocks, draft.at));
      continue;
    }
    const paired: ToolResultBlock[] = [];
    const orphans: Block[] = [];
    for (const block of draft.blocks) {
      const target = block.type === 'toolResult' ? calls.answer(block.callId) : undefined;
      if (block.type === 'toolResult' && target !== undefined) {
        if (target.repeated) warnings.push(located(draft, `tool call ${target.id} has more than one result`));
        paired.push(toolResultBlock(target.id, block.content, block.isError, target.name));
      } else if (block.type === 'toolResult') {
        unpairedResults++;
        warnings.push(located(draft, `tool result for unknown call ${block.callId} kept as user text`));
        orphans.push(injectedTextBlock(`[result of unknown tool call ${block.callId}]\n${block.content}`));
      } else {
        orphans.push(injectedTextBlock(block.type === 'text' ? block.text : JSON.stringify(block.input)));
      }
    }
    toolResults += paired.length;
    if (paired.length > 0) messages.push(message(draft.id, 'tool', paired, draft.at));
    if (orphans.length > 0) messages.push(message(paired.length > 0 ? `${draft.id}:unpaired` : draft.id, 'user', orphans, draft.at));
  }
  return { messages, toolCalls: calls.count, toolResults, unpairedResults, unansweredCalls: calls.unanswered(), warnings };
}

/** Calls seen so far, by the id the source gave them and by the unique id they now have. */
class CallRegistry {
  private readonly names = new Map<string, string>();
  private readonly answered = new Set<string>();
  /** Per source id: the unique ids of its calls not answered yet, oldest first. */
  private readonly waiting = new Map<string, string[]>();
  private readonly latest = new Map<string, string>();

  get count(): number {
    return this.names.size;
  }

  /** The unique id the call keeps: its own, or a renamed one when the source used it before. */
  register(sourceId: string, name: string): string {
    let id = sourceId;
    for (let n = 2; this.names.has(id); n++) id = `${sourceId}~${n}`;
    this.names.set(id, name);
    this.waiting.set(sourceId, [...(this.waiting.get(sourceId) ?? []), id]);
    this.latest.set(sourceId, id);
    return id;
  }

  /** The call a result with this source id answers, or undefined when no such call came before. */
  answer(sourceId: string): { id: string; name: string; repeated: boolean } | undefined {
    const id = this.waiting.get(sourceId)?.shift() ?? this.latest.get(sourceId);
    const name = id === undefined ? undefined : this.names.get(id);
    if (id === undefined || name === undefined) return undefined;
    const repeated = this.answered.has(id);
    this.answered.add(id);
    return { id, name, repeated };
  }

  unanswered(): number {
    return this.names.size - this.answered.size;
  }
}

function located(draft: MessageDraft, reason: string): ImportWarning {
  return draft.line === undefined ? { reason: `message ${draft.id}: ${reason}` } : { line: draft.line, reason };
}
