/**
 * Content that is a string or a list of parts (OpenAI content parts, Anthropic blocks inside a
 * tool result) flattened to the text the model saw, with placeholders for media. As blocks, a part
 * of a type nobody here knows is injected whatever field holds its text (RELIABILITY.md: unknown
 * types are injected), and so is content of no part shape at all: only a known text part is its
 * author's. Every reader that builds a message from such content takes its blocks.
 */
import { injectedTextBlock, textBlock, type TextBlock } from '../../engine/host/messages';
import { dataText } from './dataText';
import { isJsonObject, stringField } from './jsonShape';

/** What an image becomes: the model saw pixels, the text context keeps a marker of where. */
export const IMAGE_PLACEHOLDER = '[image]';

/** Part types that carry media rather than text, and the placeholder each becomes. */
const MEDIA_PLACEHOLDERS: Readonly<Record<string, string>> = {
  image: IMAGE_PLACEHOLDER,
  image_url: IMAGE_PLACEHOLDER,
  input_image: IMAGE_PLACEHOLDER,
  input_audio: '[audio]',
  audio: '[audio]',
  document: '[document]',
};

/** Content as text, with the part types that had to be kept as JSON. */
export interface RenderedContent {
  readonly text: string;
  /** The same text as blocks, one per part, those of unknown types (or of no part shape) injected. */
  readonly blocks: readonly TextBlock[];
  /** Part types this function does not know; they are kept as their JSON so nothing is lost. */
  readonly unknownTypes: readonly string[];
  /** Media parts (images, audio, documents) that became a placeholder. */
  readonly placeholders: number;
}

/**
 * Joins the parts with newlines; `null` and `undefined` are empty. Content that is not a list of
 * typed parts (Cline's `[{query, result}]` results) is structured data, shown as the text it holds.
 */
export function renderContent(content: unknown): RenderedContent {
  const none = { unknownTypes: [], placeholders: 0 };
  if (content === undefined || content === null) return { text: '', blocks: [], ...none };
  if (typeof content === 'string') return { text: content, blocks: content === '' ? [] : [textBlock(content)], ...none };
  const parts = Array.isArray(content) ? content : [content];
  if (!parts.every(isPart)) {
    const text = dataText(content);
    return { text, blocks: text === '' ? [] : [injectedTextBlock(text)], ...none };
  }
  const texts: string[] = [];
  const blocks: TextBlock[] = [];
  const unknownTypes: string[] = [];
  let placeholders = 0;
  for (const part of parts) {
    const rendered = renderPart(part);
    texts.push(rendered.text);
    if (rendered.text !== '') blocks.push(rendered.unknownType === undefined ? textBlock(rendered.text) : injectedTextBlock(rendered.text));
    if (rendered.unknownType !== undefined) unknownTypes.push(rendered.unknownType);
    if (rendered.placeholder === true) placeholders++;
  }
  return { text: texts.join('\n'), blocks, unknownTypes, placeholders };
}

function isPart(part: unknown): boolean {
  return typeof part === 'string' || (isJsonObject(part) && typeof part.type === 'string');
}

function renderPart(part: unknown): { text: string; unknownType?: string; placeholder?: boolean } {
  if (typeof part === 'string') return { text: part };
  if (!isJsonObject(part)) return { text: JSON.stringify(part) };
  const type = stringField(part, 'type') ?? '';
  const text = stringField(part, 'text');
  if (text !== undefined && (type === 'text' || type === 'input_text' || type === 'output_text')) return { text };
  const placeholder = MEDIA_PLACEHOLDERS[type];
  if (placeholder !== undefined) return { text: placeholder, placeholder: true };
  return { text: text ?? JSON.stringify(part), unknownType: type };
}
