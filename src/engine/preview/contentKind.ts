/**
 * What a tool result looks like, so its preview can keep what matters for that kind of content
 * (design §3.2: search results keep titles, snippets and URLs; file reads keep line ranges; JSON
 * keeps row counts, keys and sample rows; everything else keeps its head and tail).
 */

export type ContentKind = 'json' | 'fileRead' | 'search' | 'binary' | 'text';

/** Results longer than this many lines are summarized as a file read rather than shown. */
export const FILE_READ_MIN_LINES = 500;

const SEARCH_TOOL = /search|fetch|web|browse|google|bing|query_docs/i;
const FILE_READ_TOOL = /read|view|open|cat|file|get_?content/i;
export const URL_PATTERN = /https?:\/\/[^\s)>\]"']+/g;

/** A NUL, or many replacement characters, means bytes that are not text. */
export function looksBinary(content: string): boolean {
  const sample = content.slice(0, 8192);
  if (sample.includes('\0')) return true;
  let replacement = 0;
  for (const ch of sample) if (ch === '\uFFFD') replacement++;
  return sample.length > 0 && replacement / sample.length > 0.1;
}

export function parseJson(content: string): unknown {
  const trimmed = content.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return JSON.parse(content);
  } catch {
    return undefined;
  }
}

export function classifyContent(content: string, toolName: string, lineCount: number): ContentKind {
  if (looksBinary(content)) return 'binary';
  if (parseJson(content) !== undefined) return 'json';
  const urls = content.slice(0, 200_000).match(URL_PATTERN)?.length ?? 0;
  if (SEARCH_TOOL.test(toolName) && urls > 0) return 'search';
  if (urls >= 5 && urls * 40 > Math.min(lineCount, 2000)) return 'search';
  if (lineCount > FILE_READ_MIN_LINES && FILE_READ_TOOL.test(toolName)) return 'fileRead';
  return 'text';
}
