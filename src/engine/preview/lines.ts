/** Line helpers shared by the previews; every preview is bounded in characters, whatever the input. */
import { formatCount } from '../text/numbers';

/** A preview line longer than this is cut: one minified line must not fill the preview. */
export const PREVIEW_LINE_MAX_CHARS = 240;

/** Only this much of a huge result is scanned to build a preview, so previews stay cheap. */
export const PREVIEW_SCAN_MAX_CHARS = 1_000_000;

export function clipLine(line: string, max = PREVIEW_LINE_MAX_CHARS): string {
  return line.length <= max ? line : `${line.slice(0, max)}… [+${formatCount(line.length - max)} chars]`;
}

/** Splits into lines without building an array for the whole of a huge input. */
export function headLines(text: string, count: number): string[] {
  const lines: string[] = [];
  let start = 0;
  while (lines.length < count && start <= text.length) {
    const end = text.indexOf('\n', start);
    if (end === -1) {
      if (start < text.length) lines.push(text.slice(start));
      break;
    }
    lines.push(text.slice(start, end).replace(/\r$/, ''));
    start = end + 1;
  }
  return lines;
}

export function tailLines(text: string, count: number): string[] {
  const lines: string[] = [];
  let end = text.endsWith('\n') ? text.length - 1 : text.length;
  while (lines.length < count && end > 0) {
    const start = text.lastIndexOf('\n', end - 1);
    lines.unshift(text.slice(start + 1, end).replace(/\r$/, ''));
    if (start === -1) break;
    end = start;
  }
  return lines;
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Quotes lines as a Markdown block quote, the way the offload replacement shows its preview. */
export function quote(lines: readonly string[]): string {
  return lines.map((l) => `> ${clipLine(l)}`).join('\n');
}
