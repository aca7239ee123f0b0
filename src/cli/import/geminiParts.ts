/**
 * Gemini content (`PartListUnion`: a string, a part or a list of them) as text blocks. Text parts
 * are text; inline and file data (an image the user pasted, a PDF a tool read) become a
 * placeholder; a call or a response found outside a tool call's record is kept as its JSON, injected.
 */
import { injectedTextBlock, textBlock, type TextBlock } from '../../engine/host/messages';
import { isJsonObject, objectField, stringField } from './jsonShape';
import { IMAGE_PLACEHOLDER } from './renderContent';

/** A text of the content; `typed` when it is a text part, which runs on with its neighbours. */
export interface GeminiText {
  readonly block: TextBlock;
  readonly typed: boolean;
}

export interface GeminiContent {
  readonly texts: readonly GeminiText[];
  /** Data parts that became a placeholder. */
  readonly placeholders: number;
  /** Parts of no known kind, kept as their JSON. */
  readonly unknownKinds: readonly string[];
}

export function geminiParts(content: unknown): GeminiContent {
  const texts: GeminiText[] = [];
  const unknownKinds: string[] = [];
  let placeholders = 0;
  const add = (text: string, kind: 'typed' | 'media' | 'foreign') => {
    if (text !== '') texts.push({ block: kind === 'foreign' ? injectedTextBlock(text) : textBlock(text), typed: kind === 'typed' });
  };
  for (const part of Array.isArray(content) ? content : content === undefined || content === null ? [] : [content]) {
    if (typeof part === 'string') add(part, 'typed');
    else if (!isJsonObject(part)) {
      unknownKinds.push(typeof part);
      add(JSON.stringify(part), 'foreign');
    } else if (typeof part.text === 'string') {
      // A thought part is thinking, which is not model context here.
      if (part.thought !== true) add(part.text, 'typed');
    } else if (isJsonObject(part.inlineData) || isJsonObject(part.fileData)) {
      placeholders++;
      const data = objectField(part, 'inlineData') ?? objectField(part, 'fileData') ?? {};
      const mime = stringField(data, 'mimeType') ?? '';
      add(mime.startsWith('image/') || mime === '' ? IMAGE_PLACEHOLDER : `[${mime} data]`, 'media');
    } else {
      const kind = Object.keys(part).join('+') || 'empty';
      unknownKinds.push(kind);
      add(JSON.stringify(part), 'foreign');
    }
  }
  return { texts, placeholders, unknownKinds };
}
