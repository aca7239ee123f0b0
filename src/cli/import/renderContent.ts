/**
 * Content that is a string or a list of parts (OpenAI content parts, Anthropic blocks inside a
 * tool result) flattened to the text the model saw, with placeholders for media.
 */
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
  if (content === undefined || content === null) return { text: '', unknownTypes: [], placeholders: 0 };
  if (typeof content === 'string') return { text: content, unknownTypes: [], placeholders: 0 };
  const parts = Array.isArray(content) ? content : [content];
  if (!parts.every(isPart)) return { text: dataText(content), unknownTypes: [], placeholders: 0 };
  const texts: string[] = [];
  const unknownTypes: string[] = [];
  let placeholders = 0;
  for (const part of parts) {
    const rendered = renderPart(part);
    texts.push(rendered.text);
    if (rendered.unknownType !== undefined) unknownTypes.push(rendered.unknownType);
    if (rendered.placeholder === true) placeholders++;
  }
  return { text: texts.join('\n'), unknownTypes, placeholders };
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
