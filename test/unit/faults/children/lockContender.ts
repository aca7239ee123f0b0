/**
 * A child process contending for one writer lock: `node lockContender.js <root> <lockPath> <rounds>`
 * takes the lock, marks the critical section with a file only one holder may create, and lets
 * go, `rounds` times. Prints `acquired <n> refused <m>`, or `VIOLATION` when another holder was
 * inside at the same time. `node lockContender.js <root> <lockPath> hold` takes it and waits.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FileStore } from '../../../../src/engine/storage/fileStore';
import { WriterLock, WriterLockedError } from '../../../../src/engine/storage/writerLock';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const [root, lockPath, rounds] = process.argv.slice(2);
  const store = new FileStore(root);
  const options = { store, path: lockPath, purpose: `contender ${process.pid}` };
  if (rounds === 'hold') {
    await WriterLock.acquire(options);
    process.stdout.write('holding\n');
    await sleep(60_000);
    return;
  }
  const marker = path.join(root, 'inside');
  let acquired = 0;
  let refused = 0;
  for (let i = 0; i < Number(rounds); i++) {
    let lock: WriterLock;
    try {
      lock = await WriterLock.acquire(options);
    } catch (e) {
      if (!(e instanceof WriterLockedError)) throw e;
      refused++;
      await sleep(Math.random() * 3);
      continue;
    }
    try {
      fs.writeFileSync(marker, String(process.pid), { flag: 'wx' });
    } catch {
      process.stdout.write('VIOLATION\n');
      process.exit(4);
    }
    acquired++;
    await sleep(2);
    fs.rmSync(marker);
    await lock.release();
  }
  process.stdout.write(`acquired ${acquired} refused ${refused}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(3);
});
