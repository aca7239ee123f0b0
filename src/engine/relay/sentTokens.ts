/**
 * Tokens of a caller's message as ctx will send it: a tool result that tier 1 will offload counts
 * as the preview that replaces it, everything else as it is. Callers size their prompts with these
 * counts, so a large result does not push their own trimming or summarizing while ctx would keep
 * only its preview.
 */
import { MESSAGE_OVERHEAD_TOKENS, TOOL_CALL_OVERHEAD_TOKENS } from '../tokens/counter';
import { buildPreview } from '../preview/preview';
import { offloadDecision, renderOffloadReplacement } from '../tiers/offload';
import type { Block } from '../types';

export interface SentTokenDeps {
  count(text: string): Promise<number>;
  /** Tier 1's threshold for the session's budget. */
  readonly offloadThresholdTokens: number;
}

/** Stand-ins for the path of a file not written yet; about as long as a real one. */
const PLACEHOLDER_LOCATION = '/…/sessions/s-00000000-000000-000000/offloaded/00000000-000000_tool_call.txt';

/** Tokens of one block as sent. */
export async function blockTokensAsSent(block: Block, deps: SentTokenDeps): Promise<number> {
  switch (block.type) {
    case 'text':
      return deps.count(block.text);
    case 'toolCall':
      return TOOL_CALL_OVERHEAD_TOKENS + (await deps.count(`${block.name}${JSON.stringify(block.input)}`));
    case 'toolResult': {
      const tokens = await deps.count(block.content);
      if (offloadDecision(block.content, tokens, { thresholdTokens: deps.offloadThresholdTokens }) === 'keep') return tokens;
      const toolName = block.toolName ?? 'tool';
      return deps.count(
        renderOffloadReplacement({
          toolName,
          location: PLACEHOLDER_LOCATION,
          file: PLACEHOLDER_LOCATION,
          tokens,
          preview: buildPreview(block.content, toolName).text,
          isError: block.isError,
        }),
      );
    }
  }
}

/** Tokens of a message's blocks as sent, with the message's framing. */
export async function messageTokensAsSent(blocks: readonly Block[], deps: SentTokenDeps): Promise<number> {
  let total = MESSAGE_OVERHEAD_TOKENS;
  for (const b of blocks) total += await blockTokensAsSent(b, deps);
  return total;
}
