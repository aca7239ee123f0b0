/** Session documents rendered on demand rather than read from a file: a checkpoint, or an item of the context, as Markdown. */
import { AGE_LABELS, formatCount } from '../engine/host/display';
import { VIRTUAL_CHECKPOINT, VIRTUAL_ITEM } from './sessionDocuments';
import type { SessionManager } from './sessions';

export async function renderVirtualDocument(sessions: SessionManager, path: string): Promise<string | undefined> {
  const item = new RegExp(`^${VIRTUAL_ITEM}/([^/]+)/([^/]+)/[^/]+\\.md$`).exec(path);
  if (item) {
    const found = await (await sessions.get(item[1]))?.itemText(decodeURIComponent(item[2]));
    return found
      ? `# ${found.title}\n\n${found.text}`
      : 'This item is no longer in the context. The session archive still has every original message.';
  }
  const match = new RegExp(`^${VIRTUAL_CHECKPOINT}/([^/]+)/([^/]+)\\.md$`).exec(path);
  if (!match) return undefined;
  const session = await sessions.get(match[1]);
  const index = session?.checkpoints.findIndex((c) => c.id === match[2]) ?? -1;
  const c = index >= 0 ? session?.checkpoints[index] : undefined;
  if (!c) return 'This checkpoint no longer exists: a newer one merged it. The session archive still has every original message.';
  return [
    `# Checkpoint ${index + 1} · ${AGE_LABELS[c.age]} · ${c.range}`,
    '',
    `*${formatCount(c.originalTokens)} tokens → ${formatCount(c.currentTokens)} · compressed ${c.compressionCount}× · ` +
      `summarized by ${c.summarizedBy} · created ${new Date(c.createdAt).toISOString()}` +
      `${c.compressedAt ? ` · aged ${new Date(c.compressedAt).toISOString()}` : ''}*`,
    '',
    c.summary,
  ].join('\n');
}
