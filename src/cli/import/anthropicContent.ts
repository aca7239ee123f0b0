/**
 * Anthropic Messages content blocks (also what Claude Code and Cline store) to the model's blocks.
 * A user turn splits into tool messages (one per result) and user text; an assistant turn keeps
 * its text and tool calls together. An inlined file or document in a user turn is injected text:
 * the user pointed at it, but did not write it.
 */
import {
  type Block,
  type FramingOptions,
  injectedTextBlock,
  splitInjectedTags,
  textBlock,
  toolCallBlock,
  toolResultBlock,
} from '../../engine/host/messages';
import { isJsonObject, stringField, type JsonObject } from './jsonShape';
import type { DraftPart } from './messageDraft';
import { IMAGE_PLACEHOLDER, renderContent } from './renderContent';
import { toToolInput } from './toolInput';

/** What a turn's content became, plus what the importer must account for. */
export interface ConvertedContent {
  readonly parts: DraftPart[];
  readonly thinkingBlocks: number;
  /** Block types that were kept as JSON text because nothing here knows them. */
  readonly unknownTypes: string[];
  /** Media blocks (images, documents without text) that became a placeholder. */
  readonly placeholders: number;
}

const THINKING_TYPES = new Set(['thinking', 'redacted_thinking']);

/** An assistant turn: one assistant part with its text and tool calls, thinking dropped. */
export function convertAssistantContent(content: unknown): ConvertedContent {
  const blocks: Block[] = [];
  const tally = new Tally();
  for (const raw of contentBlocks(content)) {
    const type = stringField(raw, 'type') ?? '';
    if (THINKING_TYPES.has(type)) tally.thinkingBlocks++;
    else if (type === 'tool_use' || type === 'server_tool_use') {
      blocks.push(toolCallBlock(stringField(raw, 'id') ?? '', stringField(raw, 'name') ?? 'unknown', toToolInput(raw.input)));
    } else blocks.push(...textBlocks(raw, tally, []));
  }
  return tally.converted([{ role: 'assistant', blocks }]);
}

/**
 * A user turn: each tool result becomes its own tool part; runs of other blocks become user parts.
 * Text framed by `injectedTags` (an agent's reminders and context) is split off as injected text.
 */
export function convertUserContent(content: unknown, injectedTags: readonly string[] = [], framing: FramingOptions = {}): ConvertedContent {
  const parts: DraftPart[] = [];
  const tally = new Tally();
  let text: Block[] = [];
  for (const raw of contentBlocks(content)) {
    const type = stringField(raw, 'type') ?? '';
    if (THINKING_TYPES.has(type)) {
      tally.thinkingBlocks++;
    } else if (type === 'tool_result') {
      if (text.length > 0) parts.push({ role: 'user', blocks: text });
      text = [];
      const rendered = renderContent(raw.content);
      tally.unknownTypes.push(...rendered.unknownTypes);
      tally.placeholders += rendered.placeholders;
      parts.push({ role: 'tool', blocks: [toolResultBlock(stringField(raw, 'tool_use_id') ?? '', rendered.text, raw.is_error === true)] });
    } else {
      text.push(...textBlocks(raw, tally, injectedTags, framing));
    }
  }
  if (text.length > 0) parts.push({ role: 'user', blocks: text });
  return tally.converted(parts);
}

/** What a conversion counted on the way. */
class Tally {
  thinkingBlocks = 0;
  placeholders = 0;
  readonly unknownTypes: string[] = [];

  converted(parts: DraftPart[]): ConvertedContent {
    return { parts, thinkingBlocks: this.thinkingBlocks, unknownTypes: this.unknownTypes, placeholders: this.placeholders };
  }
}

/** A string content is one text block; a list keeps its objects (strings in it become text blocks). */
function contentBlocks(content: unknown): JsonObject[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.map((block): JsonObject => (isJsonObject(block) ? block : { type: 'text', text: String(block) }));
}

/** Text blocks for a block that is neither a call, a result nor thinking. */
function textBlocks(block: JsonObject, tally: Tally, injectedTags: readonly string[], framing: FramingOptions = {}): Block[] {
  const type = stringField(block, 'type') ?? '';
  const text = stringField(block, 'text');
  if (type === 'text' && text !== undefined) return text === '' ? [textBlock(text)] : splitInjectedTags(text, injectedTags, framing);
  if (type === 'image') {
    tally.placeholders++;
    return [textBlock(IMAGE_PLACEHOLDER)];
  }
  // Cline inlines an @-mentioned file into the user turn as {type:'file', path, content}.
  if (type === 'file') return [injectedTextBlock(`[file ${stringField(block, 'path') ?? ''}]\n${stringField(block, 'content') ?? ''}`)];
  if (type === 'document') return [documentBlock(block, tally)];
  // Who wrote a block of a type nobody here knows is unknown (a web search result has a `text` too):
  // it stays in context and search, but it never counts as the author's words.
  tally.unknownTypes.push(type || 'untyped');
  return [injectedTextBlock(text ?? JSON.stringify(block))];
}

/** A PDF or image document is a placeholder; a plain-text document keeps its text, as injected text. */
function documentBlock(block: JsonObject, tally: Tally): Block {
  const title = stringField(block, 'title');
  const header = title === undefined ? '[document]' : `[document ${title}]`;
  const source = isJsonObject(block.source) ? block.source : undefined;
  const data = source !== undefined && source.type === 'text' ? stringField(source, 'data') : undefined;
  if (data === undefined) tally.placeholders++;
  return injectedTextBlock(data === undefined ? header : `${header}\n${data}`);
}
