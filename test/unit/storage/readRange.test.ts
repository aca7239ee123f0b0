import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Store } from '../../../src/engine/ports';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { OverlayStore } from '../../../src/engine/storage/overlayStore';

const LINES = ['{"a":"plain"}', '{"b":"café → ✓"}', '{"c":"end"}'];
/** Byte places of the lines above: the second holds characters of two and three bytes. */
const SECOND = { start: Buffer.byteLength(`${LINES[0]}\n`), length: Buffer.byteLength(LINES[1]) };

async function rangesOf(store: Store): Promise<(string | undefined)[]> {
  await store.append('s/archive.jsonl', LINES);
  return [
    await store.readRange('s/archive.jsonl', SECOND.start, SECOND.length),
    await store.readRange('s/archive.jsonl', SECOND.start, 10_000),
    await store.readRange('s/archive.jsonl', 10_000, 5),
    await store.readRange('s/missing.jsonl', 0, 5),
  ];
}

describe('ranged reads: a line read back at its byte place', () => {
  const expected = [LINES[1], `${LINES[1]}\n${LINES[2]}\n`, '', undefined];

  it('reads the same bytes from a file store, a memory store and an overlay over either', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-range-'));
    try {
      assert.deepEqual(await rangesOf(new FileStore(root)), expected);
      assert.deepEqual(await rangesOf(new MemoryStore()), expected);
      assert.deepEqual(await rangesOf(new OverlayStore(new MemoryStore())), expected);
      const below = new FileStore(path.join(root, 'below'));
      await below.append('s/archive.jsonl', LINES);
      assert.deepEqual(await new OverlayStore(below).readRange('s/archive.jsonl', SECOND.start, SECOND.length), LINES[1]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
