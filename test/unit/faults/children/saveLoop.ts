/**
 * A child process that keeps adding messages to a stored session until it is killed:
 * `node saveLoop.js <root> <sessionId> <count> [archive-only]`. It prints `saved <n>` once
 * message n is in the archive and the state (both synced), so the parent knows what must survive.
 * With `archive-only` it appends large messages to the archive alone.
 */
import { Archive } from '../../../../src/engine/archive';
import { systemClock } from '../../../../src/engine/ports';
import { sessionPaths } from '../../../../src/engine/model/sessionPaths';
import { FileStore } from '../../../../src/engine/storage/fileStore';
import { JournaledSession, messageNumber, numberedMessage } from '../journaledSession';

async function main(): Promise<void> {
  const [root, id, countText, mode] = process.argv.slice(2);
  const store = new FileStore(root);
  const count = Number(countText);
  if (mode === 'archive-only') {
    const archive = new Archive(store, sessionPaths(id).archive);
    for (let n = 1; n <= count; n++) {
      await archive.append([numberedMessage(n * 7)]);
      process.stdout.write(`saved ${n}\n`);
    }
    return;
  }
  const session = await JournaledSession.open(store, id, systemClock, 8 * 1024);
  let n = Math.max(0, ...session.state.active.map(messageNumber));
  for (let i = 0; i < count; i++) {
    await session.add(numberedMessage(++n));
    if (!session.archiveComplete) throw new Error(`message ${n} could not be archived`);
    process.stdout.write(`saved ${n}\n`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(3);
});
