/**
 * Reading the prose of a message: its lines outside fenced code blocks, and those lines cut into
 * sentences. Code is not a statement; a sentence is what a person or the model said.
 */
import type { Message } from '../types';
import { onOneLine } from './shorten';

/** An opening or closing code fence: three or more backticks or tildes. */
const FENCE = /^\s*(?:```|~~~)/;

/** List bullets, block quotes, numbering and heading marks that open a line. */
const LINE_DECORATION = /^\s*(?:[-*+>]\s+|\d+[.)]\s+|#+\s+)+/;

/** Characters that may end a sentence. */
const SENTENCE_END = /[.!?。！？]/g;
const FULL_WIDTH_END = /[。！？]/;
/** What may open a sentence after white space: a capital, a digit, a code span, a quote or a bracket. */
const SENTENCE_START = /[\p{Lu}0-9`"'“‘([]/u;
const LOWER = /\p{Ll}/u;
const SPACE = /\s/;

/**
 * The lines of a message's text blocks outside fenced code blocks, in order. What a host printed of what it ran
 * (`TextBlock.printed`) is output, read as a step's (see `readToolSteps`), not anyone's prose.
 */
export function proseLines(msg: Message): string[] {
  return linesOf(msg, false);
}

/**
 * The lines of the text the message's author wrote (its text blocks that are not injected), outside
 * fenced code, in order: the only lines whose markers count (an attached file's `[DECISION]` is data).
 */
export function authoredProseLines(msg: Message): string[] {
  return linesOf(msg, true);
}

/** The author's lines as a set, to test a line of `proseLines` against; undefined when the message has no injected text. */
export function authoredLineSet(msg: Message): ReadonlySet<string> | undefined {
  return msg.blocks.some((b) => b.type === 'text' && b.injected === true) ? new Set(authoredProseLines(msg)) : undefined;
}

function linesOf(msg: Message, authoredOnly: boolean): string[] {
  const lines: string[] = [];
  for (const block of msg.blocks) {
    if (block.type !== 'text' || block.printed === true || (authoredOnly && block.injected === true)) continue;
    // The label an agent's harness has it open its answer with is the harness's format, not the agent's words.
    lines.push(...textProseLines(msg.role === 'assistant' ? block.text.replace(HARNESS_LABEL, '') : block.text));
  }
  return lines;
}

/** The lines of a text outside its fenced code blocks, in order. */
export function textProseLines(text: string): string[] {
  const lines: string[] = [];
  let inFence = false;
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    else if (!inFence) lines.push(line);
  }
  return lines;
}

/** A word in capitals and a colon opening an assistant's text: SWE-agent's and mini-swe-agent's `THOUGHT:`, `DISCUSSION:`. */
const HARNESS_LABEL = /^\s*[A-Z]{4,}:[ \t]*/;

/**
 * A line without the bullet, quote, numbering or heading marks that open it, on one line. Spacing inside it stays as
 * written: a table's row aligned with spaces is found as the model wrote it.
 */
export function undecorated(line: string): string {
  return onOneLine(line.replace(LINE_DECORATION, '')).trim();
}

/**
 * A capitalised plain word, as a glued sentence starts with ("input.Now, I will"); a name such as
 * `logging.WithAgent` or `os.Path` goes on with more capitals or ends the text, so it is no start.
 */
const GLUED_SENTENCE_START = /^\p{Lu}\p{Ll}+(?=[\s,;:!?])/u;

/** A list item's number alone, in emphasis or not: `1.`, `**2.`, `_3.`. */
const LIST_NUMBER = /^[*_]*\d{1,3}\.$/;

/** Whether positions of a text are inside a code span, asked in increasing order: one pass over the text. */
function codeSpans(text: string): (at: number) => boolean {
  let scanned = 0;
  let inside = false;
  return (at) => {
    for (; scanned < at; scanned++) if (text[scanned] === '`') inside = !inside;
    return inside;
  };
}

/**
 * A line's sentences, each on one line, the line's opening decoration taken off; emphasis is kept.
 * A sentence ends after `.`, `!`, `?` (or their full-width forms, which need nothing after them)
 * followed by white space and a capital, a digit, a code span, a quote or a bracket, or followed
 * directly by a capitalised word after a lower-case letter (models often glue sentences: "the
 * input.Now, I will").
 */
export function splitSentences(line: string): string[] {
  const text = undecorated(line);
  if (text.length === 0) return [];
  const sentences: string[] = [];
  const insideCode = codeSpans(text);
  let start = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index + 1;
    let next = end;
    while (next < text.length && SPACE.test(text[next])) next++;
    if (next >= text.length) break;
    const breaks = FULL_WIDTH_END.test(match[0])
      ? true
      : next > end
        ? SENTENCE_START.test(text[next])
        : match.index > 0 && LOWER.test(text[match.index - 1]) && GLUED_SENTENCE_START.test(text.slice(next, next + 40));
    // A period inside a code span (`logging.WithAgent`) belongs to the code.
    if (!breaks || insideCode(match.index)) continue;
    const sentence = text.slice(start, end).trim();
    // A list's number in emphasis (`**1. Missing rows**`) opens what follows: no sentence ends there.
    if (LIST_NUMBER.test(sentence)) continue;
    if (sentence.length > 0) sentences.push(sentence);
    start = next;
  }
  const last = text.slice(start).trim();
  if (last.length > 0) sentences.push(last);
  return sentences;
}
