import * as assert from 'node:assert/strict';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { OverlayStore } from '../../../src/engine/storage/overlayStore';

describe('the overlay store of a dry run', () => {
  it('shows its own writes, appends and removals while the store below sees none until flushed', async () => {
    const below = new MemoryStore();
    await below.append('s/a.txt', ['a']);
    await below.write('s/old/x.txt', 'x');
    const overlay = new OverlayStore(below);
    await overlay.write('s/b.txt', 'b');
    await overlay.append('s/a.txt', ['more']);
    await overlay.remove('s/old');
    assert.equal(await overlay.read('s/a.txt'), 'a\nmore\n');
    assert.equal(await overlay.read('s/old/x.txt'), undefined);
    assert.deepEqual(await overlay.list('s'), ['a.txt', 'b.txt']);
    assert.equal(await below.read('s/b.txt'), undefined);
    assert.equal(await below.read('s/a.txt'), 'a\n');
    await overlay.flush();
    assert.equal(await below.read('s/b.txt'), 'b');
    assert.equal(await below.read('s/a.txt'), 'a\nmore\n');
    assert.equal(await below.read('s/old/x.txt'), undefined);
    assert.equal(overlay.empty, true);
  });

  it('creates a file only where nothing is, and moves files, as the store below would', async () => {
    const below = new MemoryStore();
    await below.write('s/taken.txt', 'x');
    const overlay = new OverlayStore(below);
    assert.equal(await overlay.createExclusive('s/taken.txt', 'y'), false);
    assert.equal(await overlay.createExclusive('s/new.txt', 'n'), true);
    assert.equal(await overlay.kindOf('s/new.txt'), 'file');
    await overlay.rename('s/new.txt', 's/moved.txt');
    assert.deepEqual(
      (await overlay.entries('s')).map((e) => e.name),
      ['moved.txt', 'taken.txt'],
    );
    assert.equal(await below.kindOf('s/moved.txt'), undefined);
    await overlay.flush();
    assert.equal(await below.read('s/moved.txt'), 'n');
    assert.equal(await below.kindOf('s/new.txt'), undefined);
  });

  it('refuses to flush a file created meanwhile below, rather than overwrite it', async () => {
    const below = new MemoryStore();
    const overlay = new OverlayStore(below);
    await overlay.createExclusive('s/file.txt', 'mine');
    await below.write('s/file.txt', 'theirs');
    await assert.rejects(overlay.flush(), /created meanwhile/);
    assert.equal(await below.read('s/file.txt'), 'theirs');
  });
});
