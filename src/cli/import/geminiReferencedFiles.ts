/**
 * Gemini CLI (and Qwen Code, its fork) reads the files a prompt @-references and appends them to the
 * user's text between fixed separators. That appended part is the files' content, not the user's
 * words, in every format that keeps such a turn: Gemini CLI's chats, Qwen Code's logs, a Gemini
 * `contents` list.
 */
import { injectedTextBlock, textBlock, type TextBlock } from '../../engine/host/messages';
import type { GeminiText } from './geminiParts';

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

/**
 * A user turn's Gemini texts as blocks, the referenced files' content injected. The files are sent as
 * parts of their own and the separators can be in any of them, so each run of text parts is read
 * whole; a part that is not text (a placeholder, a foreign part) ends a run and keeps its block.
 */
export function userTurnBlocks(texts: readonly GeminiText[]): TextBlock[] {
  const blocks: TextBlock[] = [];
  let run = '';
  for (const text of texts) {
    if (text.typed) {
      run += text.block.text;
      continue;
    }
    blocks.push(...splitReferencedFiles(run), text.block);
    run = '';
  }
  blocks.push(...splitReferencedFiles(run));
  return blocks;
}
