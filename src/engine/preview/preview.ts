import { classifyContent, parseJson, URL_PATTERN, type ContentKind } from './contentKind';
import { clipLine, countLines, headLines, PREVIEW_SCAN_MAX_CHARS, quote, tailLines } from './lines';
import { isRecord } from '../schema';
import { formatCount } from '../text/numbers';
import { withoutFields } from '../text/harnessFields';
import { delegatesWork } from '../text/nameWords';
import { DEFINITION_KEYWORDS } from '../text/definitionKeywords';

/** A preview's body, plus what kind of content it describes. */
export interface Preview {
  readonly kind: ContentKind;
  /** Markdown shown in place of the full result. */
  readonly text: string;
}

/** Lines kept from the head and the tail of generic text. */
export const TEXT_HEAD_LINES = 10;
export const TEXT_TAIL_LINES = 5;
/** Lines kept from the head of a long file read. */
export const FILE_HEAD_LINES = 30;
/** Sample rows kept from a JSON array, and definitions listed from a file read. */
export const JSON_SAMPLE_ROWS = 3;
export const OUTLINE_MAX_ENTRIES = 40;
export const SEARCH_MAX_HITS = 10;

/** Builds the preview that stays in context when a tool result is offloaded. */
export function buildPreview(content: string, toolName: string): Preview {
  const lineCount = countLines(content);
  const kind = classifyContent(content, toolName, lineCount);
  switch (kind) {
    case 'binary':
      return { kind, text: `*Binary content (${formatCount(content.length)} characters); not shown.*` };
    case 'json':
      return { kind, text: jsonPreview(parseJson(content), lineCount) };
    case 'fileRead':
      return { kind, text: fileReadPreview(content, lineCount) };
    case 'search':
      return { kind, text: searchPreview(content) };
    case 'text': {
      // The record a harness wraps a result in (`<usage>…</usage>`, the agent's id above it) is no part of what it says;
      // a result that is nothing but the harness's notice is shown as it is rather than as nothing.
      const said = withoutFields(content, delegatesWork(toolName)) || content;
      return { kind, text: textPreview(said, said === content ? lineCount : countLines(said)) };
    }
  }
}

function textPreview(content: string, lineCount: number): string {
  if (lineCount <= TEXT_HEAD_LINES + TEXT_TAIL_LINES) return quote(headLines(content, lineCount));
  const omitted = lineCount - TEXT_HEAD_LINES - TEXT_TAIL_LINES;
  const sections = sectionOutline(content, TEXT_HEAD_LINES, lineCount - TEXT_TAIL_LINES);
  return [
    quote(headLines(content, TEXT_HEAD_LINES)),
    sections.length === 0
      ? `> … ${formatCount(omitted)} lines omitted …`
      : [`> … ${formatCount(omitted)} lines omitted; the headings among them, each with its first line:`, quote(sections), '> …'].join(
          '\n',
        ),
    quote(tailLines(content, TEXT_TAIL_LINES)),
  ].join('\n');
}

/** Sections of a document's middle shown in its preview. @default 12 */
export const OUTLINE_MAX_SECTIONS = 12;
/** Lines under a heading looked through for its first line of text. @default 4 */
const SECTION_FIRST_LINE_REACH = 4;
const MARKDOWN_HEADING = /^#{1,6}\s+\S/;
const CODE_FENCE = /^\s*(?:```|~~~)/;

/**
 * The Markdown headings of lines `from` to `to` (0-based, `to` excluded), each followed by the first line written under
 * it: what a document of instructions or notes says section by section (`## Main goal` and the goal itself), which its
 * first and last lines leave out. A `#` line inside a code fence is a comment, not a heading.
 */
function sectionOutline(content: string, from: number, to: number): string[] {
  const lines = content.slice(0, PREVIEW_SCAN_MAX_CHARS).split('\n');
  const end = Math.min(to, lines.length);
  const outline: string[] = [];
  let fenced = false;
  for (let i = 0; i < end && outline.length < OUTLINE_MAX_SECTIONS * 2; i++) {
    const line = lines[i].replace(/\r$/, '');
    if (CODE_FENCE.test(line)) fenced = !fenced;
    if (fenced || i < from || !MARKDOWN_HEADING.test(line)) continue;
    outline.push(line.trimEnd());
    const first = lines
      .slice(i + 1, Math.min(end, i + 1 + SECTION_FIRST_LINE_REACH))
      .map((l) => l.replace(/\r$/, ''))
      .find((l) => l.trim() !== '' && !MARKDOWN_HEADING.test(l) && !CODE_FENCE.test(l));
    if (first !== undefined) outline.push(first.trimEnd());
  }
  return outline;
}

/** A keyword opening a definition, after a read tool's line number (`12→`) and modifiers; or a Markdown heading. */
const DEFINITION = new RegExp(
  String.raw`^\s*(?:\d+[→:\t|]\s*)?(?:export\s+|public\s+|private\s+|async\s+|static\s+)*(?:${DEFINITION_KEYWORDS.join('|')})\b|^#{1,3}\s`,
);

function fileReadPreview(content: string, lineCount: number): string {
  const scanned = content.slice(0, PREVIEW_SCAN_MAX_CHARS);
  const outline: string[] = [];
  let lineNo = 0;
  for (const line of scanned.split('\n')) {
    lineNo++;
    if (outline.length >= OUTLINE_MAX_ENTRIES) break;
    if (lineNo > FILE_HEAD_LINES && DEFINITION.test(line)) outline.push(`- line ${lineNo}: ${clipLine(line.trim(), 120)}`);
  }
  return [
    `*File content: ${formatCount(lineCount)} lines. Lines 1–${FILE_HEAD_LINES} below; the rest is in the file.*`,
    quote(headLines(content, FILE_HEAD_LINES)),
    outline.length > 0 ? `\n**Outline (lines ${FILE_HEAD_LINES + 1}–${lineCount}):**\n${outline.join('\n')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function searchPreview(content: string): string {
  const lines = content.slice(0, PREVIEW_SCAN_MAX_CHARS).split('\n');
  const hits: string[] = [];
  for (let i = 0; i < lines.length && hits.length < SEARCH_MAX_HITS; i++) {
    const urls = lines[i].match(URL_PATTERN);
    if (!urls) continue;
    const title =
      lines[i]
        .replace(URL_PATTERN, '')
        .replace(/[\s\-–:|()[\]<>*#]+/g, ' ')
        .trim() || (lines[i - 1] ?? '').trim();
    const snippet = (lines[i + 1] ?? '').trim();
    hits.push(
      `- ${clipLine(title || '(untitled)', 120)} — ${urls[0]}${snippet && !/https?:\/\//.test(snippet) ? `\n  ${clipLine(snippet, 200)}` : ''}`,
    );
  }
  const total = content.slice(0, PREVIEW_SCAN_MAX_CHARS).match(URL_PATTERN)?.length ?? 0;
  return [`*Search results: ${formatCount(total)} links; the first ${hits.length} with titles and snippets:*`, ...hits].join('\n');
}

function jsonPreview(value: unknown, lineCount: number): string {
  if (Array.isArray(value)) {
    const keys = new Set<string>();
    for (const row of value.slice(0, 50)) if (isRecord(row)) Object.keys(row).forEach((k) => keys.add(k));
    return [
      `*JSON array: ${formatCount(value.length)} rows${keys.size > 0 ? `; keys: ${[...keys].slice(0, 30).join(', ')}` : ''}.*`,
      `Sample rows:`,
      ...value.slice(0, JSON_SAMPLE_ROWS).map((row) => `- ${clipLine(JSON.stringify(row), 300)}`),
    ].join('\n');
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    return [
      `*JSON object with ${entries.length} keys (${formatCount(lineCount)} lines):*`,
      ...entries.slice(0, 30).map(([k, v]) => `- \`${k}\`: ${describeJsonValue(v)}`),
    ].join('\n');
  }
  return `*JSON value:* ${clipLine(JSON.stringify(value))}`;
}

/** Scalars are shown (status codes, ids, messages); containers by their size. */
function describeJsonValue(v: unknown): string {
  if (Array.isArray(v)) return `array of ${v.length}`;
  if (isRecord(v)) return `object with keys ${clipLine(Object.keys(v).slice(0, 12).join(', '), 160)}`;
  return clipLine(JSON.stringify(v) ?? 'null', 160);
}
