/**
 * The line ctx writes at the top of a summarized span's copy of a result it offloaded to a file, before the
 * result's head and tail: ctx's own note, so a reader of the copy (a summarizer, fact extraction) knows where the
 * rest is. Never something the tool printed: no fact, outcome or summary line is made of it.
 */
import { formatCount } from './numbers';

/** `[Bash result of 2,068 tokens, offloaded to sessions/…/offloaded/…txt]`. */
export function offloadReferenceLine(toolName: string, tokens: number, file: string): string {
  return `[${toolName} result of ${formatCount(tokens)} tokens, offloaded to ${file}]`;
}

/** Matches a line {@link offloadReferenceLine} wrote. */
export const OFFLOAD_REFERENCE_LINE = /^\[[^\]\n]* result of [\d,]+ tokens, offloaded to [^\n]+\]$/;
