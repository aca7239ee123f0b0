import * as assert from 'node:assert/strict';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { OverlayStore } from '../../../src/engine/storage/overlayStore';

describe('the overlay store of a dry run', () => {
  it('shows its own writes, appends and removals while the store below sees none until flushed', async () => {
    const below = new MemoryStore();
    await below.write('s/a.txt', 'a');
    await below.write('s/old/x.txt', 'x');
    const overlay = new OverlayStore(below);
    await overlay.write('s/b.txt', 'b');
    await overlay.append('s/a.txt', ['more']);
    await overlay.remove('s/old');
    assert.equal(await overlay.read('s/a.txt'), 'amore\n');
    assert.equal(await overlay.read('s/old/x.txt'), undefined);
    assert.deepEqual(await overlay.list('s'), ['a.txt', 'b.txt']);
    assert.equal(await below.read('s/b.txt'), undefined);
    assert.equal(await below.read('s/a.txt'), 'a');
    await overlay.flush();
    assert.equal(await below.read('s/b.txt'), 'b');
    assert.equal(await below.read('s/a.txt'), 'amore\n');
    assert.equal(await below.read('s/old/x.txt'), undefined);
    assert.equal(overlay.empty, true);
  });
});
