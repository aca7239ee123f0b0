/**
 * Whether a search hit leads back to a probe string: its excerpt shows it, or the message or the
 * stretch of an offloaded file it points to holds it. An excerpt is cut to about 300 characters,
 * so a long probe is usually confirmed through what the hit points to.
 */
import type { Store } from '../../../src/engine/ports';
import type { RecoveryHit } from '../../../src/engine/model/recoveryTypes';
import type { Message } from '../../../src/engine/types';
import { visibleTexts } from '../import/realTranscripts';

const collapsed = (text: string) => text.replace(/\s+/g, ' ').trim();

export async function hitHolds(hit: RecoveryHit, probe: string, store: Store, archive: readonly Message[]): Promise<boolean> {
  if (collapsed(hit.excerpt).includes(collapsed(probe))) return true;
  if (hit.messageId !== undefined) {
    const message = archive.find((m) => m.id === hit.messageId);
    return message !== undefined && visibleTexts([message]).some((text) => text.includes(probe));
  }
  if (hit.location !== undefined) {
    const lines = ((await store.read(hit.location.file)) ?? '').split('\n');
    return lines
      .slice(hit.location.startLine - 1, hit.location.endLine)
      .join('\n')
      .includes(probe);
  }
  return false;
}

/** The 1-based rank of the first hit that holds the probe, or undefined. */
export async function rankOfProbe(
  hits: readonly RecoveryHit[],
  probe: string,
  store: Store,
  archive: readonly Message[],
): Promise<number | undefined> {
  for (const [i, hit] of hits.entries()) if (await hitHolds(hit, probe, store, archive)) return i + 1;
  return undefined;
}

/**
 * Whether a probe is in a rendered context as the model reads it: as written, or JSON-escaped
 * (inside a tool call's JSON input, quotes and newlines are escaped).
 */
export function contextHolds(context: string, probe: string): boolean {
  return context.includes(probe) || context.includes(JSON.stringify(probe).slice(1, -1));
}
