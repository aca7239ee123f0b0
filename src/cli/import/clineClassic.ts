/**
 * Cline's classic task history (`api_conversation_history.json`): a plain list of messages in
 * which a tool's result is user text, a `[read_file for 'a.ts'] Result:` block followed by the
 * result's own blocks (a file's text, a command's output). Cline frames the user's words itself
 * (`<task>`, `<feedback>`, `<answer>`, `<user_message>`, each closing its block), so only those
 * frames are authored, and only where Cline's structure vouches for them: outside a tool's result,
 * or in the result of a tool whose result is nothing but the user's reply. Everything else in a
 * user turn (results, `<environment_details>`, Cline's own notices) is injected.
 */
import { injectedTextBlock, splitAuthoredTag, type TextBlock } from '../../engine/host/messages';
import { isJsonObject, stringField } from './jsonShape';
import { IMAGE_PLACEHOLDER, renderContent } from './renderContent';

/** The block Cline writes before a tool's result: `[name]` or `[name for '…']`, then ` Result:`. */
const RESULT_HEADER = /^\s*\[([\w-]+)(?: for [^\n]*)?\] Result:\s*$/;

/** The tags Cline wraps the user's own words in. */
const AUTHORED_TAGS: readonly string[] = ['task', 'feedback', 'answer', 'user_message'];

/** Tools whose result is only what the user replied (a question's answer, feedback on a completion). */
const REPLY_TOOLS: ReadonlySet<string> = new Set(['ask_followup_question', 'attempt_completion', 'plan_mode_respond']);

/**
 * True when the messages are Cline's classic history: some user turn has a text block that is a
 * result header or opens with `<task>`. Every user turn of such a history is then read as Cline's.
 */
export function isClineClassicHistory(messages: readonly unknown[]): boolean {
  return messages.some((m) => isJsonObject(m) && m.role === 'user' && isClineClassicTurn(m.content));
}

function isClineClassicTurn(content: unknown): boolean {
  return (
    textsOf(content)?.some((text) => text !== undefined && (RESULT_HEADER.test(text) || text.trimStart().startsWith('<task>'))) === true
  );
}

/** A classic Cline user turn as blocks, with the images that became a placeholder. */
export interface ClineClassicTurn {
  readonly blocks: TextBlock[];
  readonly placeholders: number;
}

/** A classic Cline user turn's blocks, the user's words (and nothing else) authored; an image is a placeholder. */
export function clineClassicUserBlocks(content: unknown): ClineClassicTurn {
  const blocks: TextBlock[] = [];
  let placeholders = 0;
  let resultOf: string | undefined;
  const texts = textsOf(content);
  // A turn of a shape Cline does not write: nobody can say who wrote it.
  if (texts === undefined) return { blocks: [injectedTextBlock(renderContent(content).text)], placeholders: 0 };
  for (const text of texts) {
    if (text === undefined) {
      placeholders++;
      blocks.push(injectedTextBlock(IMAGE_PLACEHOLDER));
      continue;
    }
    if (text === '') continue;
    const header = RESULT_HEADER.exec(text);
    if (header !== null) {
      resultOf = header[1];
      blocks.push(injectedTextBlock(text));
    } else if (resultOf === undefined || REPLY_TOOLS.has(resultOf)) blocks.push(...authoredFrame(text));
    else blocks.push(injectedTextBlock(text));
  }
  return { blocks, placeholders };
}

/** The block split by the authored frame that closes it; a block no frame closes is Cline's own text. */
function authoredFrame(text: string): TextBlock[] {
  const tag = AUTHORED_TAGS.find((name) => text.trimEnd().endsWith(`</${name}>`));
  return tag === undefined ? [injectedTextBlock(text)] : splitAuthoredTag(text, tag);
}

/**
 * The texts of a content list of text and image blocks (strings count as text, an image is
 * `undefined`); undefined for any other shape.
 */
function textsOf(content: unknown): (string | undefined)[] | undefined {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return undefined;
  const texts: (string | undefined)[] = [];
  for (const part of content) {
    if (typeof part === 'string') texts.push(part);
    else if (isJsonObject(part) && part.type === 'text') texts.push(stringField(part, 'text') ?? '');
    else if (isJsonObject(part) && (part.type === 'image' || part.type === 'image_url')) texts.push(undefined);
    else return undefined;
  }
  return texts;
}
