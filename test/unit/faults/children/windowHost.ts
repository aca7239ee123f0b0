/**
 * A child process standing in for a VS Code extension host: `node windowHost.js <root> <sessionId>
 * <name> <count> <seed>` takes the session's writer lock the way the extension does
 * (`acquireSessionLock`, purpose "A VS Code window"). Holding it, it opens (or starts) that
 * session; refused, it prints `refused <message>` and goes on in a new session of its own, as the
 * extension does. It prints `session <id>`, waits for a file `go` in the root (so both windows
 * write at the same time), adds `count` messages `<name>-<i>` with seeded pauses, prints
 * `added <count>` and closes the session, letting go of the lock.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_OPTIONS } from '../../../../src/engine/options';
import { ContextSession, type SessionDeps } from '../../../../src/engine/session/contextSession';
import { acquireSessionLock } from '../../../../src/engine/session/sessionLock';
import { newSessionId } from '../../../../src/engine/model/sessionPaths';
import { FileStore } from '../../../../src/engine/storage/fileStore';
import type { WriterLock } from '../../../../src/engine/storage/writerLock';
import { WriterLockedError } from '../../../../src/engine/storage/writerLock';
import { TokenCounter } from '../../../../src/engine/tokens/counter';
import { user } from '../../support/builders';
import { CharTokenizer, FakeFiles, RecordingLogger } from '../../support/fakes';
import { seededRandom } from '../../tokens/seededRandom';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const [root, sessionId, name, count, seed] = process.argv.slice(2);
  const store = new FileStore(root);
  const deps: SessionDeps = {
    store,
    counter: new TokenCounter(new CharTokenizer()),
    files: new FakeFiles(),
    logger: new RecordingLogger(),
    clock: { now: () => Date.now() },
  };
  let id = sessionId;
  let lock: WriterLock | undefined;
  try {
    lock = await acquireSessionLock(store, sessionId, { purpose: 'A VS Code window' });
  } catch (e) {
    if (!(e instanceof WriterLockedError)) throw e;
    process.stdout.write(`refused ${e.message}\n`);
    id = newSessionId(Date.now(), name);
    lock = await acquireSessionLock(store, id, { purpose: 'A VS Code window' });
  }
  const session = (await ContextSession.open(id, DEFAULT_OPTIONS, deps)) ?? ContextSession.create(DEFAULT_OPTIONS, deps, id);
  process.stdout.write(`session ${id}\n`);
  while (!fs.existsSync(path.join(root, 'go'))) await sleep(2);
  const random = seededRandom(Number(seed));
  for (let i = 1; i <= Number(count); i++) {
    await session.add([user(`message ${i} from ${name}`, `${name}-${i}`)]);
    if (random() < 0.5) await sleep(Math.floor(random() * 4));
  }
  await session.save();
  session.dispose();
  await lock.release();
  process.stdout.write(`added ${count}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(3);
});
