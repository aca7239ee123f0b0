/**
 * Cline's classic task history (`api_conversation_history.json`, also Roo Code's and Kilo Code's):
 * a plain list of messages in which a tool's result is user text, a `[read_file for 'a.ts'] Result:`
 * block followed by the result's own blocks (a file's text, a command's output), or one block that
 * holds both. Where the assistant called its tools natively (`tool_use` blocks), each such result
 * answers the next unanswered call of the turn before, in order (the header names the tool as
 * Cline shows it, not always the call's name), and becomes that call's result; an `<error>` frame
 * ending it, or a non-zero exit code on its first line, marks a failed call. Cline frames the user's words itself
 * (`<task>`, `<feedback>`, `<answer>`, `<user_message>`, each closing its block), so only those
 * frames are authored, and only where Cline's structure vouches for them: outside a tool's result,
 * or in the result of a tool whose result is nothing but the user's reply. Everything else in a
 * user turn (results, `<environment_details>`, Cline's own notices) is injected.
 */
import { EXIT_STATUS, injectedTextBlock, splitAuthoredTag, toolResultBlock, type TextBlock } from '../../engine/host/messages';
import { isJsonObject, stringField } from './jsonShape';
import type { DraftPart } from './messageDraft';
import { IMAGE_PLACEHOLDER, renderContent } from './renderContent';

/** The block Cline writes before a tool's result: `[name]` or `[name for '…']`, then ` Result:`. */
const RESULT_HEADER = /^\s*\[([\w-]+)(?: for [\s\S]*)?\] Result:\s*$/;

/** The same header opening a block that also holds the result, on its line or the next. */
const RESULT_HEADER_LINE = /^\s*\[([\w-]+)(?: for [\s\S]*?)?\] Result:[ \t]*\n?/;

/** The editor's state Cline appends to every user turn it builds. */
const ENVIRONMENT_DETAILS = /^\s*<environment_details>/;

/** How Cline frames a tool's failure at the end of its result. */
const ERROR_FRAME = /<error>[\s\S]*<\/error>\s*$/;

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

/** The tool names the result headers of a classic Cline user turn give, in order (see `clineXmlTools.ts`). */
export function resultHeaderNames(content: unknown): string[] {
  return (textsOf(content) ?? []).flatMap((text) => {
    const header = text === undefined ? null : RESULT_HEADER_LINE.exec(text);
    return header === null ? [] : [header[1]];
  });
}

/** A call of the assistant's turn before, still waiting for its result. */
export interface ClineCall {
  readonly id: string;
  readonly name: string;
}

/** A classic Cline user turn as parts (user text, and a tool part per natively called tool's result). */
export interface ClineClassicTurn {
  readonly parts: DraftPart[];
  /** Images that became a placeholder. */
  readonly placeholders: number;
}

/**
 * A classic Cline user turn, the user's words (and nothing else) authored; an image is a
 * placeholder. `pending` lists the calls the assistant made natively in the turn before: a result
 * header answers the first of them still waiting, and is taken from the list.
 */
export function clineClassicUserBlocks(content: unknown, pending: ClineCall[] = []): ClineClassicTurn {
  const parts: DraftPart[] = [];
  let blocks: TextBlock[] = [];
  let placeholders = 0;
  let resultOf: string | undefined;
  let open: { call: ClineCall; header: string; texts: string[] } | undefined;
  const flushText = (): void => {
    if (blocks.length > 0) parts.push({ role: 'user', blocks });
    blocks = [];
  };
  const closeResult = (): void => {
    if (open === undefined) return;
    const result = resultPart(open.call, open.header, open.texts);
    flushText();
    parts.push(result.tool);
    blocks = result.words;
    open = undefined;
  };
  const texts = textsOf(content);
  // A turn of a shape Cline does not write: nobody can say who wrote it.
  if (texts === undefined) return { parts: [{ role: 'user', blocks: [injectedTextBlock(renderContent(content).text)] }], placeholders: 0 };
  for (const text of texts) {
    if (text === undefined) placeholders++;
    if (text === '') continue;
    const header = text === undefined ? null : RESULT_HEADER_LINE.exec(text);
    if (header !== null && text !== undefined && pending.length > 0) {
      closeResult();
      const call = pending.shift() as ClineCall;
      const rest = text.slice(header[0].length);
      open = { call, header: header[0].trimEnd(), texts: rest.trim() === '' ? [] : [rest] };
      // A header alone in its block is followed by the result in the next one.
      if (open.texts.length > 0) closeResult();
      continue;
    }
    if (open !== undefined) {
      open.texts.push(text ?? IMAGE_PLACEHOLDER);
      closeResult();
      continue;
    }
    if (text === undefined) {
      blocks.push(injectedTextBlock(IMAGE_PLACEHOLDER));
      continue;
    }
    const classicHeader = RESULT_HEADER.exec(text);
    if (classicHeader !== null) {
      resultOf = classicHeader[1];
      blocks.push(injectedTextBlock(text));
    } else if (resultOf === undefined || REPLY_TOOLS.has(resultOf)) blocks.push(...authoredFrame(text));
    else blocks.push(injectedTextBlock(text));
    // Cline closes what it adds to a turn with the editor's state: a block after it came later (a resumed task's new
    // instructions in the user's frame), and belongs to no result before it.
    if (ENVIRONMENT_DETAILS.test(text)) resultOf = undefined;
  }
  closeResult();
  flushText();
  return { parts, placeholders };
}

/**
 * A natively called tool's result: the text the model was given, failed when Cline framed an
 * error at its end. A tool whose result is the user's reply keeps that reply as the user's words.
 */
function resultPart(call: ClineCall, header: string, texts: readonly string[]): { tool: DraftPart; words: TextBlock[] } {
  const body = texts.join('\n');
  const reply = REPLY_TOOLS.has(call.name) ? authoredFrame(body) : [];
  const words = reply.filter((block) => block.injected !== true);
  const shown = words.length > 0 ? reply.filter((block) => block.injected === true).map((block) => block.text) : [body];
  const content = [header, ...shown].filter((text) => text.trim() !== '').join('\n');
  // A command's status line, as the first line of its result: a non-zero exit code is a failed call.
  const exit = EXIT_STATUS.exec(body.trimStart().split('\n', 1)[0]);
  const failed = ERROR_FRAME.test(body) || (exit !== null && Number(exit[1]) !== 0);
  return { tool: { role: 'tool', blocks: [toolResultBlock(call.id, content, failed)] }, words };
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
