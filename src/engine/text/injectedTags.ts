/**
 * Agents wrap what they add to a user's turn in tags of their own (`<system-reminder>`,
 * `<environment_context>`, `<attachments>`…). Text inside such a tag is data, not the user's words,
 * so a user text is split into the user's blocks and injected blocks around those tags.
 */
import { escapeRegExp } from './escapeRegExp';
import { injectedTextBlock, textBlock, type TextBlock } from '../types';

/**
 * Tags that editors and agents wrap around what they add to a user's turn: VS Code Copilot's
 * rendered prompt (`<context>`, `<attachments>`, `<reminderInstructions>`, `<environment_info>`,
 * `<workspace_info>`, and since 1.13x the memory it keeps, `<userMemory>`, `<sessionMemory>`,
 * `<repoMemory>`, sent with the environment as a message of its own), Claude Code's reminders,
 * Codex's environment context. Their content is context a tool brought in, never the user's words.
 */
export const EDITOR_INJECTED_TAGS: readonly string[] = [
  'context',
  'attachments',
  'attachment',
  'reminderInstructions',
  'environment_info',
  'workspace_info',
  'userMemory',
  'sessionMemory',
  'repoMemory',
  'system-reminder',
  'environment_context',
  'user_instructions',
  // Cline's and Roo Code's frame for the editor's state and terminal output, sent in every user turn.
  'environment_details',
];

/**
 * The line that starts a tool's result written as user text (Cline, Roo Code: `[read_file for 'notes.md'] Result:`,
 * `[execute_command] Result:`). A result has no closing frame, so nothing after it can be told from its text.
 */
const RESULT_HEADER_LINE = /^[ \t]*\[[\w-]+(?: for [^\n]*?)?\] Result:/m;

/** The tag some editors put around the user's own words in a rendered turn (VS Code Copilot's `<userRequest>`). */
export const AUTHORED_TAG = 'userRequest';

/**
 * A user's text as a caller sent it, as blocks. When the text holds `<userRequest>`, only the
 * words of the last such block, which must end the text, are the user's (see `splitAuthoredTag`).
 * A caller that frames no user words (Cline, Roo Code, any other) is read by the frames it does
 * put around what is not typed, and when unsure the text is injected: from the first line that
 * starts a tool's result written as user text to the end, and everything framed by the known
 * injected tags (see `splitInjectedTags`); only what is outside both is the user's.
 */
export function userTextBlocks(text: string): TextBlock[] {
  if (text.includes(`<${AUTHORED_TAG}>`)) return splitAuthoredTag(text, AUTHORED_TAG);
  const blocks: TextBlock[] = [];
  let inResult = false;
  // The frames are found on the whole text first: a result header inside a frame is the frame's text.
  for (const block of splitInjectedTags(text, EDITOR_INJECTED_TAGS)) {
    const header = inResult || block.injected === true ? null : RESULT_HEADER_LINE.exec(block.text);
    if (header === null) {
      blocks.push(inResult ? injectedTextBlock(block.text) : block);
      continue;
    }
    if (header.index > 0) blocks.push(textBlock(block.text.slice(0, header.index)));
    blocks.push(injectedTextBlock(block.text.slice(header.index)));
    inResult = true;
  }
  return blocks;
}

/** How `splitInjectedTags` reads a text. */
export interface FramingOptions {
  /**
   * A text that opens with a tag of any name is framed by that tag too. For hosts that put each
   * addition in a content block of its own (Claude Code's `<ide_selection>`), so a tag nobody
   * listed still marks the block as the host's.
   */
  readonly leadingTagFrames?: boolean;
}

/**
 * The text as blocks, split by the host's framing tags. The host's tags wrap text it did not
 * write (a file, a reminder, an AGENTS.md) and that text may hold the same tags, closing or
 * opening, so no closing tag inside can be trusted. Only what is certainly outside every frame
 * is the author's: the text before the first opening of any framing tag and after the last
 * closing of any; everything between is injected. An unclosed frame runs to the end. Whitespace
 * between blocks joins the injected block, so the blocks' texts put together are the text itself.
 */
export function splitInjectedTags(text: string, tags: readonly string[], options: FramingOptions = {}): TextBlock[] {
  if (text === '') return [];
  const leading = options.leadingTagFrames === true ? LEADING_TAG.exec(text)?.[1] : undefined;
  const names = leading === undefined ? tags : [...tags, leading];
  if (names.length === 0) return [textBlock(text)];
  const alternatives = names.map(escapeRegExp).join('|');
  const openings = [...text.matchAll(new RegExp(`<(?:${alternatives})(?:\\s[^>]*)?>`, 'g'))];
  if (openings.length === 0) return [textBlock(text)];
  const first = openings[0].index;
  const lastOpening = openings[openings.length - 1].index;
  const closings = [...text.matchAll(new RegExp(`</(?:${alternatives})\\s*>`, 'g'))].filter((c) => c.index > first);
  const lastClosing = closings[closings.length - 1];
  // A frame still open after the last closing tag (or never closed) runs to the end.
  const end = lastClosing === undefined || lastClosing.index < lastOpening ? text.length : lastClosing.index + lastClosing[0].length;
  const pieces: Piece[] = [];
  push(pieces, text.slice(0, first), false);
  push(pieces, text.slice(first, end), true);
  push(pieces, text.slice(end), false);
  return withWhitespaceInjected(pieces).map((piece) => (piece.injected ? injectedTextBlock(piece.text) : textBlock(piece.text)));
}

/**
 * The inverse, for hosts that frame the user's words rather than their own additions (VS Code
 * Copilot appends `<userRequest>` after every attachment). Only a frame the host's position
 * vouches for counts: the last `<authoredTag>` of the text, whose closing tag ends the text (only
 * whitespace after it). Its inner text is the user's, everything else is injected. An attached
 * file holding the tag sits before the host's frame and stays injected; when the frame is not
 * where the host puts it, nothing in the text is the user's. Then the user's `typed` words (the
 * request's own field), when given, are looked for at the end of the text, and otherwise follow
 * the injected text as the user's own block.
 */
export function splitAuthoredTag(text: string, authoredTag: string, typed?: string): TextBlock[] {
  const opening = `<${authoredTag}>`;
  const closing = `</${authoredTag}>`;
  const trimmed = text.trimEnd();
  const inner = text.lastIndexOf(opening) + opening.length;
  if (trimmed.endsWith(closing) && inner >= opening.length && inner <= trimmed.length - closing.length) {
    return framed(text, inner, trimmed.length - closing.length);
  }
  const words = typed?.trim() ?? '';
  if (words === '') return text === '' ? [] : [injectedTextBlock(text)];
  if (trimmed.endsWith(words)) return framed(text, trimmed.length - words.length, trimmed.length);
  return [...(text === '' ? [] : [injectedTextBlock(text)]), textBlock(typed ?? words)];
}

/** The text with `[from, to)` as the author's and the rest injected. */
function framed(text: string, from: number, to: number): TextBlock[] {
  const pieces: Piece[] = [];
  push(pieces, text.slice(0, from), true);
  push(pieces, text.slice(from, to), false);
  push(pieces, text.slice(to), true);
  return withWhitespaceInjected(pieces).map((piece) => (piece.injected ? injectedTextBlock(piece.text) : textBlock(piece.text)));
}

/** A tag that opens the text (after whitespace): its name. */
const LEADING_TAG = /^\s*<([A-Za-z][\w.:-]*)(?:\s[^>]*)?>/;

interface Piece {
  readonly text: string;
  readonly injected: boolean;
}

/** Appends a piece; whitespace alone never makes a block of its own, and neighbours of one kind merge. */
function push(pieces: Piece[], text: string, injected: boolean): void {
  if (text === '') return;
  const last = pieces[pieces.length - 1];
  if (last !== undefined && (last.injected === injected || text.trim() === '')) {
    pieces[pieces.length - 1] = { text: last.text + text, injected: last.injected };
  } else if (last !== undefined && last.text.trim() === '') {
    // Leading whitespace goes with what follows it.
    pieces[pieces.length - 1] = { text: last.text + text, injected };
  } else {
    pieces.push({ text, injected });
  }
}

/** Moves the whitespace an authored piece has next to an injected one into the injected one. */
function withWhitespaceInjected(pieces: readonly Piece[]): Piece[] {
  const out = pieces.map((piece) => ({ ...piece }));
  for (let i = 0; i < out.length; i++) {
    if (out[i].injected) continue;
    const before = out[i - 1];
    const after = out[i + 1];
    if (before !== undefined) {
      const lead = /^\s*/.exec(out[i].text)?.[0] ?? '';
      out[i - 1] = { text: before.text + lead, injected: true };
      out[i] = { text: out[i].text.slice(lead.length), injected: false };
    }
    if (after !== undefined) {
      const trail = /\s*$/.exec(out[i].text)?.[0] ?? '';
      out[i + 1] = { text: trail + after.text, injected: true };
      out[i] = { text: out[i].text.slice(0, out[i].text.length - trail.length), injected: false };
    }
  }
  return out;
}
