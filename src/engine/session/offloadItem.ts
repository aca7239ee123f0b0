/**
 * "Offload now": a tool result the user picks goes to a file at once, by tier 1's own mechanism
 * (the preview by content type, the path, `ctx_read_offloaded`), whatever its size against the
 * threshold. Nothing leaves the context while the archive misses a message.
 */
import { findResult, parseItemId, toolNameOf } from '../dashboard/itemIds';
import { errorMessage } from '../errors';
import { withOffloaded } from '../ledger/ledgerEdits';
import type { Store } from '../ports';
import { formatCount } from '../text/numbers';
import { KEEP_SMALL_BELOW_TOKENS, offloadResult } from '../tiers/offload';
import { refused, type ItemEdit } from './itemEdit';
import type { SessionState } from '../model/sessionState';

export interface OffloadItemDeps {
  readonly store: Store;
  /** The session's folder of offloaded files. */
  readonly folder: string;
  /** False while the archive misses a message: then nothing may leave the context. */
  readonly archiveComplete: boolean;
  countText(text: string): Promise<number>;
  /** True while token counts are estimates. */
  readonly estimated: boolean;
  readonly now: number;
}

/** Offloads a live tool result to a file, leaving a preview and the path. */
export async function offloadItem(state: SessionState, id: string, deps: OffloadItemDeps): Promise<ItemEdit> {
  const parsed = parseItemId(id);
  if (parsed?.kind !== 'toolResult') return refused('Only a tool result can be offloaded to a file.');
  const found = findResult(state.active, parsed.key);
  if (!found) return refused('That tool result is no longer in the context.');
  if (state.offloads.some((o) => o.callId === parsed.key)) {
    return refused('That tool result is offloaded already: the context holds its preview.');
  }
  if (!deps.archiveComplete) return refused('The archive could not be written yet, so nothing leaves the context until it is.');
  const toolName = found.block.toolName ?? toolNameOf(state.active, parsed.key) ?? 'tool';
  const tokens = await deps.countText(found.block.content);
  if (tokens < KEEP_SMALL_BELOW_TOKENS) {
    return refused(`That ${toolName} result is only ${formatCount(tokens)} tokens: its preview would take about as much.`);
  }
  let offloaded;
  try {
    offloaded = await offloadResult(found.block, toolName, tokens, deps.now, { store: deps.store, folder: deps.folder });
  } catch (e) {
    return refused(`The ${toolName} result could not be written to a file (${errorMessage(e)}); it stays in the context.`);
  }
  const savedTokens = Math.max(0, tokens - (await deps.countText(offloaded.block.content)));
  const blocks = found.message.blocks.map((b) => (b === found.block ? offloaded.block : b));
  const name = offloaded.file.split('/').pop() ?? offloaded.file;
  return {
    patch: {
      active: state.active.map((m) => (m === found.message ? { ...m, blocks } : m)),
      offloads: [
        ...state.offloads,
        {
          callId: parsed.key,
          toolName,
          file: offloaded.file,
          tokens,
          savedTokens,
          kind: offloaded.kind,
          isError: found.block.isError,
          at: deps.now,
          estimated: deps.estimated,
        },
      ],
      ledger: withOffloaded(state.ledger, [{ callId: parsed.key, toolName, file: offloaded.file, tokens }]),
    },
    events: [
      {
        at: deps.now,
        kind: 'offload',
        savedTokens,
        detail: `Offloaded ${toolName} result (${formatCount(tokens)} tokens) to ${name}, as you asked`,
        file: offloaded.file,
        name: 'item-offloaded',
      },
    ],
    done: `Offloaded the ${toolName} result to ${name}; the context keeps a preview and the path.`,
  };
}
