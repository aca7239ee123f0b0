/**
 * Agents wrap what they add to a user's turn in tags of their own (`<system-reminder>`,
 * `<environment_context>`, `<attachments>`…). Text inside such a tag is data, not the user's words,
 * so a user text is split into the user's blocks and injected blocks around those tags.
 */
import { injectedTextBlock, textBlock, type TextBlock } from '../types';

/**
 * Tags that editors and agents wrap around what they add to a user's turn: VS Code Copilot's
 * rendered prompt (`<context>`, `<attachments>`, `<reminderInstructions>`, `<environment_info>`,
 * `<workspace_info>`), Claude Code's reminders, Codex's environment context. Their content is
 * context a tool brought in, never the user's words.
 */
export const EDITOR_INJECTED_TAGS: readonly string[] = [
  'context',
  'attachments',
  'attachment',
  'reminderInstructions',
  'environment_info',
  'workspace_info',
  'system-reminder',
  'environment_context',
  'user_instructions',
];

/** The tag some editors put around the user's own words in a rendered turn (VS Code Copilot's `<userRequest>`). */
export const AUTHORED_TAG = 'userRequest';

/**
 * A user's text as a caller sent it, as blocks: when it wraps the user's words in
 * `<userRequest>`, only those are the user's; otherwise the known injected tags are split off.
 */
export function userTextBlocks(text: string): TextBlock[] {
  return text.includes(`<${AUTHORED_TAG}>`) ? splitAuthoredTag(text, AUTHORED_TAG) : splitInjectedTags(text, EDITOR_INJECTED_TAGS);
}

/**
 * The text as blocks: each known tag (with its contents) becomes an injected block, the text
 * between tags stays the author's. Whitespace between blocks joins the block before it, so the
 * blocks' texts put together are the text itself; the line breaks around a tag go with the tag,
 * so the author's blocks hold their words without them. An unclosed tag runs to the end of the text.
 */
export function splitInjectedTags(text: string, tags: readonly string[]): TextBlock[] {
  if (tags.length === 0 || text === '') return text === '' ? [] : [textBlock(text)];
  const pieces: Piece[] = [];
  const opening = new RegExp(`<(${tags.map(escapeRegExp).join('|')})(?:\\s[^>]*)?>`, 'g');
  let from = 0;
  for (let match = opening.exec(text); match !== null; match = opening.exec(text)) {
    const closing = `</${match[1]}>`;
    const closeAt = text.indexOf(closing, match.index + match[0].length);
    const end = closeAt === -1 ? text.length : closeAt + closing.length;
    push(pieces, text.slice(from, match.index), false);
    push(pieces, text.slice(match.index, end), true);
    from = end;
    opening.lastIndex = end;
  }
  push(pieces, text.slice(from), false);
  return withWhitespaceInjected(pieces).map((piece) => (piece.injected ? injectedTextBlock(piece.text) : textBlock(piece.text)));
}

/**
 * The inverse, for agents that wrap the user's words rather than their own additions: the text
 * inside `authoredTag` is the user's and everything else (the tag itself included) is injected.
 * Without the tag, the user's `typed` words are looked for in the text; when they are not there
 * either, the whole text is injected and the typed words follow as the user's own block.
 */
export function splitAuthoredTag(text: string, authoredTag: string, typed?: string): TextBlock[] {
  const pieces: Piece[] = [];
  const opening = `<${authoredTag}>`;
  const closing = `</${authoredTag}>`;
  let from = 0;
  for (let start = text.indexOf(opening); start !== -1; start = text.indexOf(opening, from)) {
    const inner = start + opening.length;
    const closeAt = text.indexOf(closing, inner);
    const end = closeAt === -1 ? text.length : closeAt;
    push(pieces, text.slice(from, inner), true);
    push(pieces, text.slice(inner, end), false);
    from = closeAt === -1 ? text.length : closeAt;
  }
  if (from === 0 && typed !== undefined && typed.trim() !== '') {
    const at = text.indexOf(typed);
    if (at === -1) return [...(text === '' ? [] : [injectedTextBlock(text)]), textBlock(typed)];
    push(pieces, text.slice(0, at), true);
    push(pieces, typed, false);
    from = at + typed.length;
  }
  push(pieces, text.slice(from), true);
  return withWhitespaceInjected(pieces).map((piece) => (piece.injected ? injectedTextBlock(piece.text) : textBlock(piece.text)));
}

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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
