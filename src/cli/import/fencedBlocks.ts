/**
 * Fenced code blocks in an agent's reply: text-action agents put their command in one.
 */

export interface FencedBlock {
  /** Offset of the opening fence. */
  readonly start: number;
  /** Offset just after the closing fence. */
  readonly end: number;
  readonly body: string;
}

/** mini-swe-agent's own action pattern (`` ```bash\s*\n(.*?)\n``` ``, dot matching newlines). */
const BASH_BLOCK = /```bash\s*\n([\s\S]*?)\n```/g;

/** Any fenced block; SWE-agent's text actions use a bare fence. */
const ANY_BLOCK = /```[^\n`]*\n([\s\S]*?)\n?```/g;

/** The ```` ```bash ```` blocks, as mini-swe-agent finds them (it runs the command only when there is exactly one). */
export function bashBlocks(text: string): FencedBlock[] {
  return [...text.matchAll(BASH_BLOCK)].map(toBlock);
}

/** Every fenced block, whatever its language. */
export function fencedBlocks(text: string): FencedBlock[] {
  return [...text.matchAll(ANY_BLOCK)].map(toBlock);
}

/**
 * The text around a block, which the call now holds: keeping both would count the command twice.
 * Only the fences and the whitespace around them are lost.
 */
export function withoutBlock(text: string, block: FencedBlock): string {
  const before = text.slice(0, block.start).trimEnd();
  const after = text.slice(block.end).trim();
  return before !== '' && after !== '' ? `${before}\n\n${after}` : before + after;
}

function toBlock(match: RegExpExecArray | RegExpMatchArray): FencedBlock {
  const start = match.index ?? 0;
  return { start, end: start + match[0].length, body: match[1] };
}
