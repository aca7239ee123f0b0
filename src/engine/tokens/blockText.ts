import type { Block } from '../types';

/**
 * The text a block costs tokens for: what the model reads of it. A tool call is its name and
 * its input as JSON; a result is its content. Ids stay out: they travel outside the text.
 */
export function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'toolCall':
      return block.name + inputText(block.input);
    case 'toolResult':
      return block.content;
  }
}

/** Input nested thousands of levels deep cannot be written as JSON (the stack overflows); it is counted by a stand-in. */
function inputText(input: unknown): string {
  try {
    return JSON.stringify(input) ?? '';
  } catch {
    return '[tool input nested too deeply to show]';
  }
}
