/**
 * Gemini CLI reads the files a prompt @-references and appends them to the user's text between
 * fixed separators. That appended part is the files' content, not the user's words.
 */
import { injectedTextBlock, textBlock, type TextBlock } from '../../engine/host/messages';

/** Where Gemini CLI starts and ends the content it read for @-references. */
const REFERENCED_START = '--- Content from referenced files ---';
const REFERENCED_END = '--- End of content ---';

/**
 * The user's text with the referenced files' content as an injected block; the characters are all
 * kept. A file may hold the separators itself, so the appended part runs from the first start
 * separator to the last end separator (to the end of the text when a start follows the last end):
 * no separator inside a file can let its text out.
 */
export function splitReferencedFiles(text: string): TextBlock[] {
  const start = text.indexOf(REFERENCED_START);
  if (start === -1) return text === '' ? [] : [textBlock(text)];
  const lastEnd = text.lastIndexOf(REFERENCED_END);
  const end = lastEnd < text.lastIndexOf(REFERENCED_START) ? text.length : lastEnd + REFERENCED_END.length;
  // Whitespace around the appended part goes with it, so every character stays in some block.
  const head = text.slice(0, start);
  const headEnd = head.trim() === '' ? 0 : head.trimEnd().length;
  const tailStart = text.slice(end).trim() === '' ? text.length : end;
  return [
    ...(headEnd === 0 ? [] : [textBlock(text.slice(0, headEnd))]),
    injectedTextBlock(text.slice(headEnd, tailStart)),
    ...(tailStart === text.length ? [] : [textBlock(text.slice(tailStart))]),
  ];
}
