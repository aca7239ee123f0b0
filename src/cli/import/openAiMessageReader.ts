/**
 * OpenAI Chat Completions messages to the model's blocks: `tool_calls` with JSON-string arguments,
 * `tool` messages answering them by `tool_call_id` (or SWE-agent's `tool_call_ids` list), and the
 * legacy `function_call` / `function` pair. A message of a role nobody here knows is kept as
 * injected user text: whoever wrote it, it was not the user or the assistant.
 */
import { type Block, injectedTextBlock, type Role, textBlock, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import { arrayField, isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import type { DraftPart } from './messageDraft';
import { type ClineCall, clineClassicUserBlocks } from './clineClassic';
import { withXmlToolCalls } from './clineXmlTools';
import { renderContent } from './renderContent';
import { toToolInput } from './toolInput';

/** What one OpenAI message became. */
export interface ReadMessage {
  readonly parts: DraftPart[];
  readonly thinkingBlocks: number;
  readonly unknownTypes: readonly string[];
  /** Media parts that became a placeholder. */
  readonly placeholders: number;
  /** Set when the role is none of the known ones; the content is then kept as injected user text. */
  readonly unknownRole?: string;
}

const ROLES: Readonly<Record<string, Role>> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
  function: 'tool',
};

interface PendingCall {
  readonly id: string;
  readonly name: string;
}

/** Reads one conversation's messages in order; it remembers unanswered calls for id-less results. */
export class OpenAiMessageReader {
  private readonly unanswered: PendingCall[] = [];
  /** The XML calls of the last assistant turn of a classic Cline history, which its next user turn answers. */
  private clineCalls: ClineCall[] = [];

  /** @param clineClassic The messages are Cline's classic history (see `clineClassic.ts`): its user turns are read as Cline frames them. */
  constructor(private readonly clineClassic = false) {}

  /**
   * @param sourceId Id of the message in the source, used to name calls that carry no id.
   * @param next The raw message after this one: in a classic Cline history, it tells which tags of an assistant's text
   * were calls (see `clineXmlTools.ts`).
   */
  read(raw: JsonObject, sourceId: string, next?: unknown): ReadMessage {
    const roleName = stringField(raw, 'role') ?? '';
    const role = ROLES[roleName] ?? 'user';
    const content = renderContent(raw.content);
    if (role === 'tool') {
      return {
        parts: [{ role, blocks: this.results(raw, content.text) }],
        thinkingBlocks: 0,
        unknownTypes: content.unknownTypes,
        placeholders: content.placeholders,
      };
    }
    const unknownRole = ROLES[roleName] === undefined ? roleName || 'missing' : undefined;
    if (role === 'user' && unknownRole === undefined && this.clineClassic) {
      // Cline's classic history: tool results are user text, and only Cline's frames hold the user's words.
      const turn = clineClassicUserBlocks(raw.content, this.clineCalls);
      this.clineCalls = [];
      return { parts: turn.parts, thinkingBlocks: 0, unknownTypes: [], placeholders: turn.placeholders };
    }
    // A part of an unknown type is injected (its block says so); all of an unknown role is.
    const blocks: Block[] = unknownRole === undefined ? [...content.blocks] : content.text === '' ? [] : [injectedTextBlock(content.text)];
    let thinkingBlocks = 0;
    if (role === 'assistant') {
      const refusal = stringField(raw, 'refusal');
      if (refusal !== undefined && refusal !== '') blocks.push(textBlock(refusal));
      // Reasoning some providers return beside the content; thinking is not model context here.
      if (isNonEmptyString(raw.reasoning_content) || isNonEmptyString(raw.reasoning)) thinkingBlocks++;
      blocks.push(...this.calls(raw, sourceId));
      if (this.clineClassic && !blocks.some((b) => b.type === 'toolCall')) {
        const read = withXmlToolCalls(blocks, next, sourceId);
        blocks.splice(0, blocks.length, ...read);
        this.clineCalls = read.flatMap((b) => (b.type === 'toolCall' ? [{ id: b.id, name: b.name }] : []));
      }
    }
    return {
      parts: [{ role, blocks }],
      thinkingBlocks,
      unknownTypes: content.unknownTypes,
      placeholders: content.placeholders,
      ...(unknownRole === undefined ? {} : { unknownRole }),
    };
  }

  /** Records a call made outside `read` (SWE-agent text actions) so id-less results can find it. */
  noteCall(id: string, name: string): void {
    this.unanswered.push({ id, name });
  }

  private calls(raw: JsonObject, sourceId: string): Block[] {
    const blocks: Block[] = [];
    (arrayField(raw, 'tool_calls') ?? []).forEach((entry, index) => {
      if (!isJsonObject(entry)) return;
      const fn = objectField(entry, 'function') ?? {};
      blocks.push(
        toolCallBlock(
          stringField(entry, 'id') ?? `${sourceId}:call-${index + 1}`,
          stringField(fn, 'name') ?? 'unknown',
          toToolInput(fn.arguments),
        ),
      );
    });
    const legacy = objectField(raw, 'function_call');
    if (legacy !== undefined) {
      blocks.push(toolCallBlock(`${sourceId}:function-call`, stringField(legacy, 'name') ?? 'unknown', toToolInput(legacy.arguments)));
    }
    for (const block of blocks) if (block.type === 'toolCall') this.noteCall(block.id, block.name);
    return blocks;
  }

  /**
   * Ids decide the pairing wherever they exist. Only a result with no id at all (legacy `function`
   * messages) takes the oldest unanswered call, of the same name when one is given.
   */
  private results(raw: JsonObject, content: string): Block[] {
    const ids = resultIds(raw);
    if (ids.length === 0) {
      const name = stringField(raw, 'name');
      const index = this.unanswered.findIndex((call) => name === undefined || call.name === name);
      ids.push(index >= 0 ? this.unanswered[index].id : '');
    }
    const isError = raw.is_error === true;
    return ids.map((id, index) => {
      const at = this.unanswered.findIndex((call) => call.id === id);
      if (at >= 0) this.unanswered.splice(at, 1);
      // One output answering several calls is stored once; the others point to it.
      return toolResultBlock(id, index === 0 ? content : `[output shared with call ${ids[0]}]`, isError);
    });
  }
}

function resultIds(raw: JsonObject): string[] {
  const single = stringField(raw, 'tool_call_id');
  if (single !== undefined) return [single];
  return (arrayField(raw, 'tool_call_ids') ?? []).filter((id): id is string => typeof id === 'string');
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}
