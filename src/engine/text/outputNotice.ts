/**
 * A host's notice at the top of a tool's result that the output was too large and went to a file, with a preview
 * after it: how large it was and the path of the whole (`Output too large (35.8KB). Full output saved to: /…/b2a1.txt`).
 * It says where the host put the output, not what the program printed: no outcome, no earlier line and not what the
 * ledger says the command printed, but a sign that the call's output did not reach the model whole. Told
 * by its shape and by who named the path: a size and, at the end of the line, a path the call never named, then
 * after a blank line a label that introduces the rest (`Preview (first 2KB):`). A program that reports a file it
 * was asked to write names a path its command holds; one that says where it put something goes on with its output.
 */

import { OFFLOAD_REFERENCE_LINE } from './offloadReference';

/** A size with its unit: `35.8KB`, `103.1 KB`, `2,068 tokens`, `12 MiB`. */
const SIZE = /(?<![\w.])\d+(?:[.,]\d+)*\s?(?:[KMG]i?B|kB|bytes|tokens|characters|chars)(?!\w)/;
/** An absolute path ending the line, before closing punctuation: `/home/u/x.txt`, `C:\Temp\x.txt`, `~/x.txt`. */
const PATH_AT_END = /(?:^|[\s:("'`])((?:~?\/|[A-Za-z]:\\)[^\s"'`]+?)[.)\]"'`]*$/;
/** Most words of a notice besides its size and path. @default 12 */
const MAX_NOTICE_WORDS = 12;
/** Lines of the notice's paragraph after its first, at most. @default 3 */
const MAX_PARAGRAPH_LINES = 3;
/** A short label that ends with a colon: it introduces what follows (`Preview (first 500 chars):`). */
const PREVIEW_LABEL = /^.{1,60}:$/;
/** A tag the host wraps the whole result in, alone on the first line: `<persisted-output>`. */
const WRAPPER_TAG = /^<[\w-]+>[^\S\n]*\n/;
/** Longest notice line, in characters. @default 400 */
const MAX_NOTICE_CHARS = 400;

/** A host's notice found at the top of a result: its first line, and the result without the notice. */
export interface OutputNotice {
  readonly line: string;
  readonly rest: string;
}

/**
 * The host's output notice `content` opens with, if any, and `content` without it (what stands before the notice
 * stays). The notice is its first line, the lines of its paragraph (advice on reading the file) and the label that
 * introduces the preview. `callInput` is what the call asked for, as text: a path it names is the program's, not
 * the host's.
 */
export function outputNotice(content: string, callInput: string): OutputNotice | undefined {
  const beside = noteBesideFramedOutput(content);
  if (beside) return beside;
  const start = noticeStart(content);
  const end = content.indexOf('\n', start);
  if (end < 0 || end - start > MAX_NOTICE_CHARS) return undefined;
  if (content.slice(end + 1).trim().length === 0) return undefined;
  const line = content.slice(start, end).trim();
  const size = SIZE.exec(line);
  const path = PATH_AT_END.exec(line);
  if (!size || !path || callInput.toLowerCase().includes(path[1].toLowerCase())) return undefined;
  const words = line
    .replace(path[1], ' ')
    .replace(size[0], ' ')
    .split(/\s+/)
    .filter((w) => /\p{L}/u.test(w));
  if (words.length > MAX_NOTICE_WORDS) return undefined;
  const lines = content.slice(end + 1).split('\n');
  const blank = lines.findIndex((l) => l.trim().length === 0);
  if (blank < 0 || blank > MAX_PARAGRAPH_LINES) return undefined;
  let at = blank;
  while (at < lines.length && lines[at].trim().length === 0) at++;
  if (at >= lines.length || !PREVIEW_LABEL.test(lines[at].trim())) return undefined;
  return { line, rest: content.slice(0, start) + lines.slice(at + 1).join('\n') };
}

const NOTE_BEFORE_OUTPUT = /<([A-Za-z][\w-]*)>[^\S\n]*\n?([^<]{1,1000}?)<\/\1>\s*$/;
/** The element a harness frames a program's output in: `<output>`, `<output_head>`. */
const OUTPUT_FRAME = /<output[\w-]*>/;

/**
 * A harness's note in an element of its own right before the element it frames the output in (mini-swe-agent's
 * `<warning>` that the output was too long and how to see less of it, then `<output_head>…`): outside the output's
 * frame, the text is the harness's, and the note's first line says the output did not reach the model whole.
 */
function noteBesideFramedOutput(content: string): OutputNotice | undefined {
  const frame = OUTPUT_FRAME.exec(content);
  if (!frame) return undefined;
  const note = NOTE_BEFORE_OUTPUT.exec(content.slice(0, frame.index));
  const line = note?.[2]
    .split('\n')
    .find((l) => l.trim().length > 0)
    ?.trim();
  // A note says something in words; a status (`<returncode>0</returncode>`) is a figure.
  if (!note || line === undefined || !/\p{L}{3}/u.test(line)) return undefined;
  return { line, rest: content.slice(0, note.index) + content.slice(note.index + note[0].length) };
}

/** `content` without a host's output notice (see {@link outputNotice}), or `content` itself when it opens with none. */
export function withoutOutputNotice(content: string, callInput: string): string {
  return outputNotice(content, callInput)?.rest ?? content;
}

/** Where the notice would start: after blank lines, ctx's own note on an offloaded copy and a wrapper tag, which are kept. */
function noticeStart(content: string): number {
  let at = content.length - content.trimStart().length;
  const firstEnd = content.indexOf('\n', at);
  if (firstEnd > at && OFFLOAD_REFERENCE_LINE.test(content.slice(at, firstEnd))) at = firstEnd + 1;
  const wrapper = WRAPPER_TAG.exec(content.slice(at));
  return wrapper ? at + wrapper[0].length : at;
}
