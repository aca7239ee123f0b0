import * as assert from 'node:assert/strict';
import { DEFAULT_OPTIONS } from '../../src/engine/options';
import type { Store } from '../../src/engine/ports';
import { renderStatusReport } from '../../src/engine/activity/statusReport';
import { ContextSession } from '../../src/engine/session/contextSession';
import { contextStatus } from '../../src/engine/activity/contextStatus';
import { MemoryStore } from '../../src/engine/storage/memoryStore';
import { TokenCounter } from '../../src/engine/tokens/counter';
import { messageText, type Message } from '../../src/engine/types';
import { CharTokenizer, FakeClock, FakeFiles, RecordingLogger } from './support/fakes';
import { assistant, call, filler, result, user } from './support/builders';
import { sessionRig } from './support/session';

/** A store whose writes fail until it is told to work again: a full or read-only disk. */
class FailingStore extends MemoryStore {
  failing = true;
  override async write(p: string, c: string): Promise<void> {
    if (this.failing) throw new Error('ENOSPC: no space left on device');
    return super.write(p, c);
  }
  override async append(p: string, l: readonly string[]): Promise<void> {
    if (this.failing) throw new Error('ENOSPC: no space left on device');
    return super.append(p, l);
  }
}

const allText = (ms: readonly Message[]) =>
  ms
    .flatMap((m) => m.blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'toolResult' ? b.content : JSON.stringify(b.input))))
    .join('\n');

describe('session', () => {
  it('archives every message before any tier changes the active context', async () => {
    const rig = sessionRig();
    const big = filler(30_000);
    await rig.session.add([user('go', 'u1'), call('c1', 'fetch', {}), result('c1', big)]);
    const archived = await rig.session.readArchive();
    assert.equal(archived.length, 3);
    assert.ok(allText(archived).includes(big));
    assert.ok(!allText(rig.session.messages).includes(big));
  });

  it('survives a full disk: messages stay in context unchanged, nothing is offloaded, the user is told, and the archive catches up', async () => {
    const store = new FailingStore();
    const rig = sessionRig({}, store);
    const big = filler(30_000);
    await rig.session.add([user('go', 'u1'), call('c1', 'fetch', {}), result('c1', big)]);
    assert.ok(allText(rig.session.messages).includes(big));
    assert.equal(rig.session.archiveComplete, false);
    assert.match(rig.session.warnings[0].message, /archive could not be written \(ENOSPC: no space left on device\)/);
    const compressed = await rig.session.compress(10_000);
    assert.equal(compressed.events.length, 0);

    store.failing = false;
    await rig.session.add([user('more', 'u2')]);
    assert.equal(rig.session.archiveComplete, true);
    assert.deepEqual((await rig.session.readArchive()).map((m) => m.id).slice(-2), [rig.session.messages[2].id, 'u2']);
    assert.equal((await rig.session.readArchive()).length, 4);
  });

  it('reopens a saved session with its watermark, offloads and context', async () => {
    const store = new MemoryStore();
    const rig = sessionRig({}, store);
    await rig.session.add([user('hello', 'u1'), call('c1', 'fetch', {}), result('c1', filler(20_000))]);
    await rig.session.prepare(100_000);
    const deps = {
      store,
      counter: new TokenCounter(new CharTokenizer()),
      files: new FakeFiles(),
      logger: new RecordingLogger(),
      clock: new FakeClock(),
    };
    const reopened = await ContextSession.open(rig.session.id, DEFAULT_OPTIONS, deps);
    assert.ok(reopened);
    assert.deepEqual(reopened.messages, rig.session.messages);
    assert.equal(reopened.offloads.length, 1);
    assert.equal(reopened.title, 'hello');
  });

  it('rebuilds a corrupt state file from the archive and says so', async () => {
    const store = new MemoryStore();
    const rig = sessionRig({}, store);
    await rig.session.add([user('hello', 'u1'), assistant('hi', 'a1')]);
    await rig.session.save();
    await store.write(rig.session.paths.state, '{"schema":1, "id": trunc');
    const deps = {
      store,
      counter: new TokenCounter(new CharTokenizer()),
      files: new FakeFiles(),
      logger: new RecordingLogger(),
      clock: new FakeClock(),
    };
    const reopened = await ContextSession.open(rig.session.id, DEFAULT_OPTIONS, deps);
    assert.deepEqual(
      reopened?.messages.map((m) => m.id),
      ['u1', 'a1'],
    );
    assert.match(reopened?.warnings[0].message ?? '', /could not be read, so its context was rebuilt from the archive \(2 messages\)/);
    assert.equal(await ContextSession.open('s-20260101-000000-none', DEFAULT_OPTIONS, deps), undefined);
  });

  it('explicit compression moves the watermark past old tool calls, summarizes the rest and keeps the recent messages whole', async () => {
    const rig = sessionRig({ recentTokensKept: 0 });
    await rig.session.add([
      user('look around', 'u1'),
      call('c1', 'list', {}, 'Listing.'),
      result('c1', filler(500)),
      call('c2', 'read', {}),
      result('c2', filler(500)),
      assistant('Found it.'),
      call('c3', 'read', {}),
      result('c3', 'recent result'),
    ]);
    const before = await rig.session.prepare(100_000);
    const after = await rig.session.compress(100_000);
    assert.ok(before.tokens - after.tokens >= 400, `${before.tokens} → ${after.tokens}`);
    assert.equal(rig.session.state.watermark, 'c2');
    const ids = rig.session.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'toolCall' ? [b.id] : [])));
    assert.deepEqual(ids, ['c3'], 'the latest messages stay whole');
    assert.equal(rig.session.checkpoints.length, 1, 'the older messages are in a checkpoint');
    assert.ok(!rig.session.messages.some((m) => messageText(m) === 'Listing.'));
  });
});

describe('bad input', () => {
  it('offloads a 50 MB tool result by estimate without losing it', async () => {
    const rig = sessionRig();
    const huge = 'log line with some words 0123456789\n'.repeat(Math.ceil(50_000_000 / 36));
    await rig.session.add([call('c1', 'dump', {}), result('c1', huge)]);
    const record = rig.session.offloads[0];
    assert.equal(record.estimated, true);
    assert.equal((await rig.store.read(record.file))?.length, huge.length);
    assert.ok(allText(rig.session.messages).length < 5000);
  });

  it('offloads binary content with a plain note instead of a preview of garbage', async () => {
    const rig = sessionRig({ offloadThresholdTokens: 1000 });
    const binary = Array.from({ length: 20_000 }, (_, i) => String.fromCharCode(i % 256)).join('');
    await rig.session.add([call('c1', 'read_file', { path: 'a.png' }), result('c1', binary)]);
    assert.match(allText(rig.session.messages), /Binary content \(20,000 characters\); not shown\./);
  });

  it('writes invalid UTF-16 as well-formed text to the offloaded file while the archive keeps the original', async () => {
    const rig = sessionRig();
    const broken = `${filler(16_000)}\ud800 tail`;
    await rig.session.add([call('c1', 'cat', {}), result('c1', broken)]);
    const file = await rig.store.read(rig.session.offloads[0].file);
    assert.ok(file?.endsWith('\ufffd tail'));
    assert.ok(allText(await rig.session.readArchive()).includes('\ud800 tail'));
    assert.ok(rig.logger.has('warn', /invalid UTF-16/));
  });

  it('previews JSON that does not parse as text', async () => {
    const rig = sessionRig();
    await rig.session.add([call('c1', 'api', {}), result('c1', `{"rows": [${'{"a":1},'.repeat(10_000)}`)]);
    assert.equal(rig.session.offloads[0].kind, 'text');
  });

  it('keeps a large result in context, whole, when its file cannot be written', async () => {
    const store = new (class extends MemoryStore {
      override async write(p: string, c: string): Promise<void> {
        if (p.includes('/offloaded/')) throw new Error('EACCES: permission denied');
        return super.write(p, c);
      }
    })();
    const rig = sessionRig({}, store as Store);
    const big = filler(20_000);
    await rig.session.add([call('c1', 'fetch', {}), result('c1', big)]);
    assert.ok(allText(rig.session.messages).includes(big));
    assert.match(
      rig.session.warnings[0].message,
      /could not be written to a file \(EACCES: permission denied\); it stays in the context in full/,
    );
  });
});

describe('status report', () => {
  it('renders the status report with usage, level, savings, history and recommendation', async () => {
    const rig = sessionRig();
    await rig.session.add([user('go'), call('c1', 'fetch', {}), result('c1', filler(20_000))]);
    const prepared = await rig.session.prepare(2_000);
    const status = contextStatus({
      state: rig.session.state,
      tokens: prepared.tokens,
      budget: 2_000,
      estimated: false,
      thresholds: DEFAULT_OPTIONS.thresholds,
      warnings: [],
      now: rig.clock.now(),
    });
    const report = renderStatusReport(status);
    assert.match(report, /^## Context Status Report\n\*\*Timestamp:\*\* 2026-01-21 10:35:22 UTC/);
    assert.match(report, new RegExp(`\\*\\*Level:\\*\\* ${prepared.level}`));
    assert.match(report, /\*\*Tool results offloaded:\*\* 1 \([\d,]+ tokens saved\)/);
    assert.match(report, /\| Tier 1 · offload \| [\d,]+ \| Offloaded fetch result/);
    assert.match(report, /### Recommendation\n/);
  });
});
