/**
 * Lines of content for the earlier lines' pool (design §4.1), shown quoted under what they are of
 * and ranked after every other line, so they only ever fill room nothing else wants: the content
 * of a result offloaded on arrival (`offloadedFacts`), and what a summarized span's tools read,
 * printed and were given (the files as they were read, the middle of long outputs, a file written
 * or code run). A session whose context stays small because its large results went to files, or
 * whose summarized spans had few other lines to show, then shows more of what the agent worked on
 * while it has room, instead of ending at a third of its budget, as an agent that re-reads its
 * latest files after compacting does, without reading the disk again.
 */
import type { ContentSource, Fact } from '../model/fact';
import { MAX_OUTPUT_LINE_CHARS, OUTPUT_HEAD_LINES, OUTPUT_TAIL_LINES } from './outputLines';
import { topLevelRanges } from '../text/topLevelRanges';
import { fnv1a } from '../text/fnv';
import { withoutFrames } from '../ledger/frameLines';
import { outputEdges } from './outputEdges';
import type { ToolStep } from './toolSteps';
import { isDelegation } from './reportFacts';
import { oneLine, shortenEnd } from '../text/shorten';
import { withoutHostFrame } from '../text/hostFrame';

/**
 * Most characters of one offloaded result's content, and of one summarized span's content, taken as lines.
 * @default 40_000 — about 10,000 tokens: the earlier lines' room in a large window, more than a small one has;
 * the pool's own cap (a share of the budget) and the request's free room still apply.
 */
export const MAX_CONTENT_CHARS = 40_000;
/** Score of a range of content: below every fact and every output line, so it is shown last and leaves the pool first. */
export const CONTENT_LINE_SCORE = 0.05;

/**
 * The content as its top-level ranges (see `topLevelRanges`), in order, each one fact whose text is
 * its lines as written, indentation and all, under `from` (an offloaded file's name unless
 * `fromKind` says otherwise): a range is shown whole or not at all, so the code shown is code, its
 * closing `end` and `}` with it. Up to `maxChars`, from the top; a line too long to be text (data, a
 * minified file) ends what is taken. A range's key names it (its source and a hash of its text), so
 * two ranges that open alike stay two, and the same range read again is one.
 */
export function contentLineFacts(
  content: string,
  from: string,
  messageId: string,
  maxChars = MAX_CONTENT_CHARS,
  fromKind?: ContentSource,
): Fact[] {
  const facts: Fact[] = [];
  let taken = 0;
  // Only what can be taken is read; the last range of a cut text may be cut too, and is left out.
  const whole = content.length <= maxChars;
  const ranges = topLevelRanges(whole ? content : content.slice(0, maxChars), MAX_CONTENT_LINE_CHARS);
  if (!whole) ranges.pop();
  // Content without a word in it (a hex dump, columns of figures) says nothing a reader could use. Otherwise every
  // range is taken in order, so what is shown is the content from its top without a gap.
  if (!ranges.some((range) => range.some(hasWord))) return [];
  for (const range of ranges) {
    const text = range.join('\n');
    if (taken + text.length > maxChars) break;
    taken += text.length;
    const key = `${from}#${(fnv1a(text) >>> 0).toString(36)}`;
    // Counted with the outputs: content is what a tool printed, not a fact read from it.
    facts.push({
      kind: 'outcome',
      key,
      text,
      messageId,
      score: CONTENT_LINE_SCORE,
      printed: true,
      from,
      ...(fromKind ? { fromKind } : {}),
    });
  }
  return facts;
}

/** A line with a run of four letters: a word, not a figure, an address or punctuation. */
const hasWord = (line: string) => /\p{L}{4}/u.test(line);

/** Longest line of content taken, in characters: a longer one is data, and ends what is taken. @default 400 */
export const MAX_CONTENT_LINE_CHARS = 2 * MAX_OUTPUT_LINE_CHARS;

/** Longest command or call a content heading names, in characters. @default 80 */
const MAX_SOURCE_COMMAND_CHARS = 80;

/** Fewest lines a call's input needs for its text to be shown as content: a shorter one is the call's subject. @default 3 */
const MIN_INPUT_LINES = 3;

/** A piece of content of a span, with what its lines are shown under. */
interface SpanContent {
  readonly text: string;
  readonly from: string;
  readonly fromKind: ContentSource;
  readonly messageId: string;
}

/**
 * The content of what the tool `steps` read, printed and were given, as lines: every file read
 * (its latest read) and every other call whose output is longer than the lines its ends give
 * (`outputLineFacts`), and the text a call was given when it runs to several lines (a file
 * written, a patch, code), the latest first, up to {@link MAX_CONTENT_CHARS} in all. A call that
 * failed shows no output here: its error lines are facts already.
 */
export function spanContentFacts(steps: readonly ToolStep[]): Fact[] {
  const facts: Fact[] = [];
  const seen = new Set<string>();
  let left = MAX_CONTENT_CHARS;
  for (let i = steps.length - 1; i >= 0 && left > 0; i--) {
    for (const content of [outputContent(steps[i]), inputContent(steps[i])]) {
      if (content === undefined || left <= 0) continue;
      // A file read again or a command run again shows its latest content; each call's input is its own.
      const key = `${content.fromKind}:${content.from}`;
      if (content.fromKind !== 'input' && seen.has(key)) continue;
      seen.add(key);
      const lines = contentLineFacts(content.text, content.from, content.messageId, left, content.fromKind);
      left -= lines.reduce((sum, f) => sum + f.text.length, 0);
      facts.push(...lines);
    }
  }
  return facts;
}

/** What a step read or printed, or undefined when it has nothing its output lines do not show. */
function outputContent(step: ToolStep): SpanContent | undefined {
  const { activity, ok, result, messageId } = step;
  if (!ok) return undefined;
  if (activity.kind === 'file') {
    // A file's lines are what the tool read, not the host's frame around them (its label, a shell's exit status).
    return activity.action === 'read' && activity.paths.length === 1
      ? { text: withoutHostFrame(result.content), from: activity.paths[0], fromKind: 'read', messageId }
      : undefined;
  }
  const name = callName(step);
  const whole = outputEdges(result.content, OUTPUT_HEAD_LINES, OUTPUT_TAIL_LINES, MAX_OUTPUT_LINE_CHARS * 2).whole;
  // What the harness wrapped around it and the runs a build prints item by item are no part of what it said.
  return name === undefined || whole
    ? undefined
    : { text: withoutFrames(result.content, isDelegation(step)), from: name, fromKind: 'output', messageId };
}

/** Input keys of text a call replaced rather than wrote (`old_string`, `oldText`): not what the file holds now. */
const REPLACED_TEXT_KEY = /^old/i;

/** The longest text a step's call was given, when it runs to several lines: a file's new content, a patch, code. */
function inputContent(step: ToolStep): SpanContent | undefined {
  const { activity, call, messageId } = step;
  if (call === undefined) return undefined;
  let text = '';
  for (const [key, value] of Object.entries(call.input)) {
    if (typeof value === 'string' && value.length > text.length && !REPLACED_TEXT_KEY.test(key)) text = value;
  }
  if (text.split('\n', MIN_INPUT_LINES).length < MIN_INPUT_LINES) return undefined;
  if (activity.kind === 'file') {
    return activity.action !== 'read' && activity.paths.length === 1
      ? { text, from: activity.paths[0], fromKind: 'written', messageId }
      : undefined;
  }
  const name = callName(step);
  return name === undefined ? undefined : { text, from: name, fromKind: 'input', messageId };
}

/** The command or call a step's content is shown under, short and on one line. */
function callName(step: ToolStep): string | undefined {
  const name = step.subject ?? step.call?.name;
  return name === undefined ? undefined : shortenEnd(oneLine(name), MAX_SOURCE_COMMAND_CHARS);
}
