/**
 * Copilot Chat's prompt content parts (`Raw.ChatCompletionContentPart` of @vscode/prompt-tsx), as
 * stored in a chat export's rendered messages and in a chat replay's request messages.
 */
import { isJsonObject, stringField } from './jsonShape';
import { IMAGE_PLACEHOLDER } from './renderContent';

/** The kinds of part prompt-tsx numbers (`ChatCompletionContentPartKind`). */
const IMAGE = 0;
const TEXT = 1;
/** Provider state the model never reads as text (a stateful marker, say). */
const OPAQUE = 2;
/** Where the prompt cache may break: no content at all. */
const CACHE_BREAKPOINT = 3;
const DOCUMENT = 4;

/** The text of the parts, with what had to be stood in for. */
export interface RenderedParts {
  readonly text: string;
  /** Images and documents that became a placeholder. */
  readonly placeholders: number;
  /** Parts of a kind this reader does not know, kept as their JSON. */
  readonly unknownKinds: readonly string[];
}

/** Joins the text parts (a string stays as it is); images and documents become placeholders. */
export function renderRawParts(content: unknown): RenderedParts {
  if (typeof content === 'string') return { text: content, placeholders: 0, unknownKinds: [] };
  const texts: string[] = [];
  const unknownKinds: string[] = [];
  let placeholders = 0;
  for (const part of Array.isArray(content) ? content : []) {
    const kind = isJsonObject(part) ? part.type : undefined;
    if (!isJsonObject(part)) {
      unknownKinds.push(typeof part);
      texts.push(JSON.stringify(part));
    } else if (kind === TEXT) {
      texts.push(stringField(part, 'text') ?? '');
    } else if (kind === IMAGE || kind === DOCUMENT) {
      placeholders++;
      texts.push(kind === IMAGE ? IMAGE_PLACEHOLDER : '[document]');
    } else if (kind !== OPAQUE && kind !== CACHE_BREAKPOINT) {
      unknownKinds.push(String(kind));
      texts.push(JSON.stringify(part));
    }
  }
  return { text: texts.join(''), placeholders, unknownKinds };
}
