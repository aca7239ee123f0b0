/**
 * Deterministic compression of one tool result (design §3.5, old results compressed in place): the first and
 * last lines, and in between the lines that mention errors, warnings, failures, exit codes or
 * paths, within the target, after a note saying what was done and where the full result is.
 */
import type { Message, ToolResultBlock } from '../types';
import { ESTIMATE_SAFETY, MAX_FIT_ATTEMPTS } from './fitLines';
import { shortenMiddle } from '../text/shorten';
import { RECOVER_TOOL } from './summaryFormat';
import type { SummaryRequest } from './summarizer';
import type { CountText } from '../model/countText';

/** Share of the budget given to the first lines before anything else. @default 0.25 */
export const HEAD_SHARE_OF_BUDGET = 0.25;
/** Share of the budget given to the last lines before anything else. @default 0.25 */
export const TAIL_SHARE_OF_BUDGET = 0.25;

/**
 * Longest line kept whole, as a share of the budget: one huge line (minified JSON) must not take it all.
 * @default 0.125
 */
export const MAX_LINE_SHARE = 0.125;

/** Lines that say something went wrong, or how it ended. */
const ALERT_LINE =
  /\b(?:errors?|warn(?:ing|ings)?|fail(?:s|ed|ure|ures|ing)?|exceptions?|traceback|panic(?:ked)?|fatal|exit(?:ed)?|exit code|assert(?:ion)?)\b/i;
/** Lines that name a file (written to run in linear time on very long lines). */
const PATH_LINE =
  /[\w@.-][\\/][\w@.-]|\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|kt|c|cc|cpp|h|hpp|cs|rb|php|json|md|ya?ml|toml|sh|txt|lock|cfg|ini)\b/;

/** The note that opens a compressed result. */
export function compressionNote(toolName: string, fromTokens: number, toTokens: number): string {
  return (
    `[ctx compressed this ${toolName} result from ${fromTokens} to about ${toTokens} tokens; ` +
    `the full result is in the archive — search it with ${RECOVER_TOOL}]`
  );
}

/** The result of `request` within `request.targetTokens`, or unchanged when it already fits. */
export async function compressToolResult(request: SummaryRequest, countText: CountText): Promise<string> {
  const { content, toolName } = resultOf(request.messages);
  const tokens = await countText(content);
  const target = request.targetTokens;
  if (tokens <= target) return content;

  const note = compressionNote(toolName, tokens, target);
  const noteTokens = await countText(note);
  const lines = content.split('\n');
  let budgetChars = (target - noteTokens) * (content.length / tokens) * ESTIMATE_SAFETY;
  for (let attempt = 0; attempt < MAX_FIT_ATTEMPTS && budgetChars > 0; attempt++) {
    const text = `${note}\n${keptLines(lines, budgetChars)}`;
    const textTokens = await countText(text);
    if (textTokens <= target) return text;
    budgetChars *= (target / textTokens) * ESTIMATE_SAFETY;
  }
  return note;
}

/** The result's text and its tool's name: the tool messages' results, the call found by id. */
function resultOf(messages: readonly Message[]): { content: string; toolName: string } {
  const results = messages
    .filter((m) => m.role === 'tool')
    .flatMap((m) => m.blocks.filter((b): b is ToolResultBlock => b.type === 'toolResult'));
  const calls = messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'toolCall' ? [b] : [])));
  const first = results[0];
  const toolName = first?.toolName ?? calls.find((c) => c.id === first?.callId)?.name ?? calls[0]?.name ?? 'tool';
  if (results.length > 0) return { content: results.map((r) => r.content).join('\n'), toolName };
  const text = messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : []))).join('\n');
  return { content: text, toolName };
}

/** Head, tail and alert lines within `budgetChars`, gaps marked with how many lines were left out. */
function keptLines(allLines: readonly string[], budgetChars: number): string {
  const lineCap = Math.max(80, Math.floor(budgetChars * MAX_LINE_SHARE));
  if (allLines.length <= 3) return shortenMiddle(allLines.join('\n'), Math.floor(budgetChars));
  const lines = allLines.map((line) => shortenMiddle(line, lineCap));
  const kept = new Set<number>();
  let left = budgetChars;
  const take = (i: number): boolean => {
    if (kept.has(i)) return true;
    const cost = lines[i].length + 1;
    if (cost > left) return false;
    kept.add(i);
    left -= cost;
    return true;
  };

  let head = 0;
  while (head < lines.length && budgetChars - left < budgetChars * HEAD_SHARE_OF_BUDGET && take(head)) head++;
  let tail = lines.length - 1;
  const tailStart = budgetChars - left;
  while (tail > head && budgetChars - left - tailStart < budgetChars * TAIL_SHARE_OF_BUDGET && take(tail)) tail--;
  for (const pattern of [ALERT_LINE, PATH_LINE]) {
    for (let i = head; i <= tail && left > 0; i++) if (pattern.test(lines[i])) take(i);
  }
  while (head <= tail && take(head)) head++;
  while (tail >= head && take(tail)) tail--;

  const out: string[] = [];
  let gap = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!kept.has(i)) {
      gap++;
      continue;
    }
    if (gap > 0) out.push(`[… ${gap} lines omitted …]`);
    gap = 0;
    out.push(lines[i]);
  }
  if (gap > 0) out.push(`[… ${gap} lines omitted …]`);
  return out.join('\n');
}
