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
      return block.name + (JSON.stringify(block.input) ?? '');
    case 'toolResult':
      return block.content;
  }
}
