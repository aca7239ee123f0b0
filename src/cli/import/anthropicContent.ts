/**
 * Anthropic Messages content blocks (also what Claude Code and Cline store) to the model's blocks.
 * A user turn splits into tool messages (one per result) and user text; an assistant turn keeps
 * its text and tool calls together.
 */
import { textBlock, toolCallBlock, toolResultBlock, type Block } from '../../engine/types';
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
}

const THINKING_TYPES = new Set(['thinking', 'redacted_thinking']);

/** An assistant turn: one assistant part with its text and tool calls, thinking dropped. */
export function convertAssistantContent(content: unknown): ConvertedContent {
  const blocks: Block[] = [];
  const unknownTypes: string[] = [];
  let thinkingBlocks = 0;
  for (const raw of contentBlocks(content)) {
    const type = stringField(raw, 'type') ?? '';
    if (THINKING_TYPES.has(type)) thinkingBlocks++;
    else if (type === 'tool_use' || type === 'server_tool_use') {
      blocks.push(toolCallBlock(stringField(raw, 'id') ?? '', stringField(raw, 'name') ?? 'unknown', toToolInput(raw.input)));
    } else blocks.push(textBlock(blockText(raw, unknownTypes)));
  }
  return { parts: [{ role: 'assistant', blocks }], thinkingBlocks, unknownTypes };
}

/** A user turn: each tool result becomes its own tool part; runs of other blocks become user parts. */
export function convertUserContent(content: unknown): ConvertedContent {
  const parts: DraftPart[] = [];
  const unknownTypes: string[] = [];
  let text: Block[] = [];
  let thinkingBlocks = 0;
  for (const raw of contentBlocks(content)) {
    const type = stringField(raw, 'type') ?? '';
    if (THINKING_TYPES.has(type)) {
      thinkingBlocks++;
    } else if (type === 'tool_result') {
      if (text.length > 0) parts.push({ role: 'user', blocks: text });
      text = [];
      const rendered = renderContent(raw.content);
      unknownTypes.push(...rendered.unknownTypes);
      parts.push({ role: 'tool', blocks: [toolResultBlock(stringField(raw, 'tool_use_id') ?? '', rendered.text, raw.is_error === true)] });
    } else {
      text.push(textBlock(blockText(raw, unknownTypes)));
    }
  }
  if (text.length > 0) parts.push({ role: 'user', blocks: text });
  return { parts, thinkingBlocks, unknownTypes };
}

/** A string content is one text block; a list keeps its objects (strings in it become text blocks). */
function contentBlocks(content: unknown): JsonObject[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.map((block): JsonObject => (isJsonObject(block) ? block : { type: 'text', text: String(block) }));
}

/** Text for a block that is neither a call, a result nor thinking. */
function blockText(block: JsonObject, unknownTypes: string[]): string {
  const type = stringField(block, 'type') ?? '';
  const text = stringField(block, 'text');
  if (type === 'text' && text !== undefined) return text;
  if (type === 'image') return IMAGE_PLACEHOLDER;
  // Cline inlines an @-mentioned file into the user turn as {type:'file', path, content}.
  if (type === 'file') return `[file ${stringField(block, 'path') ?? ''}]\n${stringField(block, 'content') ?? ''}`;
  if (type === 'document') return documentText(block);
  unknownTypes.push(type || 'untyped');
  return text ?? JSON.stringify(block);
}

/** A PDF or image document is a placeholder; a plain-text document keeps its text. */
function documentText(block: JsonObject): string {
  const title = stringField(block, 'title');
  const header = title === undefined ? '[document]' : `[document ${title}]`;
  const source = isJsonObject(block.source) ? block.source : undefined;
  const data = source !== undefined && source.type === 'text' ? stringField(source, 'data') : undefined;
  return data === undefined ? header : `${header}\n${data}`;
}
