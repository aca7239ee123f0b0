import * as assert from 'node:assert/strict';
import { RecoveryIndex } from '../../../src/engine/recovery/recoveryIndex';
import { readOffloaded } from '../../../src/engine/recovery/readOffloaded';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { SESSION, offloadedPath } from './fixtures';

const FIFTY_MB = 50 * 1024 * 1024;

/** About 50 MB of build output: a warning near the start, a failure near the end. */
function hugeBuildLog(): { text: string; lines: number } {
  const chunk: string[] = [];
  for (let i = 0; i < 1000; i++) {
    chunk.push(`[webpack] compiled module ./src/components/widget${i % 97}.tsx in ${i % 13}ms (hash 9f${(i * 7919).toString(16)})`);
  }
  const block = `${chunk.join('\n')}\n`;
  const blocks = Math.ceil(FIFTY_MB / block.length);
  const head = 'WARN deprecatedLegacyPolyfill still imported by src/polyfills.ts\n';
  const text = head + block.repeat(blocks) + 'ERROR lateStageLinkerFailure: undefined symbol _zx_vmo_create\n';
  return { text, lines: 1 + blocks * 1000 + 1 };
}

describe('recovery search: bounded on huge content', () => {
  it('indexes a 50 MB offloaded file within the cap, finds what is inside the cap and notes the rest', async function () {
    this.timeout(60_000);
    const store = new MemoryStore();
    const log = hugeBuildLog();
    assert.ok(log.text.length >= FIFTY_MB);
    await store.write(offloadedPath('build.txt'), log.text);
    const index = await RecoveryIndex.build(store, SESSION);

    const [warning] = await index.search('deprecatedLegacyPolyfill');
    assert.equal(warning.matchLine, 1);
    assert.deepEqual(await index.search('lateStageLinkerFailure'), [], 'the end of the file is past the 5 MB cap');
    assert.ok(index.size < 5_000_000 / 1_000, `passages stay bounded (${index.size})`);
    const [note] = index.notes;
    assert.match(
      note.message,
      new RegExp(
        String.raw`is large: only the first 4,99\d,\d{3} of 5\d,\d{3},\d{3} characters \(up to line [\d,]+\) are searchable\. ` +
          String.raw`Read further with ctx_read_offloaded from line \d+\.`,
      ),
    );

    const end = await readOffloaded(store, SESSION, 'build.txt', { startLine: log.lines });
    assert.match(end.text, /lateStageLinkerFailure/);
  });

  it('stops adding documents at the total bound and says which were left out', async () => {
    const store = new MemoryStore();
    await store.write(offloadedPath('a.txt'), 'alpha '.repeat(2_000));
    await store.write(offloadedPath('b.txt'), 'bravo '.repeat(2_000));
    const index = await RecoveryIndex.build(store, SESSION, { maxCharsPerDocument: 10_000, maxTotalChars: 10_000 });
    assert.equal((await index.search('alpha')).length, 1);
    assert.deepEqual(await index.search('bravo'), []);
    assert.match(
      index.notes.map((n) => n.message).join('\n'),
      /b\.txt is not searchable: the index already holds its limit of 10,000 characters/,
    );
  });
});
