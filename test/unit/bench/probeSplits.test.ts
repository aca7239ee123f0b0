import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { replaySessionProbes, splitFigures, type SessionProbes } from '../../bench/probeSplits';
import { readyCounter } from '../../bench/replayFixtures';

/** A small OpenAI-style session: a request, a decision, a failing tool run and an outcome. */
function smallSession(): string {
  return JSON.stringify({
    messages: [
      { role: 'user', content: 'Rename the cache directory to .ctx-cache and keep the old one readable' },
      { role: 'assistant', content: 'I will move the folder first and add a fallback reader for the old path.' },
      { role: 'user', content: 'mv: cannot stat cache: No such file or directory' },
      { role: 'assistant', content: 'The folder is created lazily, so the rename is done in the writer instead. All 12 tests pass.' },
    ],
  });
}

describe('probe splits benchmark', () => {
  let folder: string;
  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-probe-splits-'));
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('counts a probe the session holds as kept and found, and one it never held as lost', async () => {
    fs.writeFileSync(path.join(folder, 'small.json'), smallSession());
    const probes = [
      { file: 'small.json', kind: 'error', probe: 'cannot stat cache: No such file or directory' },
      { file: 'small.json', kind: 'outcome', probe: 'All 12 tests pass.' },
      { file: 'small.json', kind: 'decision', probe: 'a sentence nobody wrote' },
    ];
    const result = await replaySessionProbes('tuning', folder, 'small.json', probes, await readyCounter());
    assert.equal(result.unread, undefined);
    assert.equal(result.probes, 3);
    assert.equal(result.verbatim, 2);
    assert.equal(result.found, 2);
    assert.deepEqual(result.byKind.decision, { total: 1, verbatim: 0, found: 0 });
    assert.ok(result.usage > 0 && result.usage <= 1, `usage ${result.usage}`);
  });

  it('counts every probe of a session the importer cannot read as lost, with the reason', async () => {
    fs.writeFileSync(path.join(folder, 'events.jsonl'), `${JSON.stringify({ sensor: 'x', readings: [1, 2, 3] })}\n`);
    const probes = [{ file: 'events.jsonl', kind: 'intent', probe: 'x' }];
    const result = await replaySessionProbes('tuning', folder, 'events.jsonl', probes, await readyCounter());
    assert.ok(result.unread !== undefined && result.unread.length > 0);
    assert.equal(result.verbatim, 0);
    assert.deepEqual(result.byKind.intent, { total: 1, verbatim: 0, found: 0 });
  });

  it('adds up a split by kind and leaves unread sessions out of the budget share', () => {
    const session = (usage: number, unread?: string): SessionProbes => ({
      split: 's',
      file: `${usage}`,
      probes: 2,
      byKind: { error: { total: 2, verbatim: unread ? 0 : 1, found: unread ? 0 : 2 } },
      verbatim: unread ? 0 : 1,
      found: unread ? 0 : 2,
      usage,
      ms: 10,
      ...(unread ? { unread } : {}),
    });
    const figures = splitFigures('s', [session(0.4), session(0.6), session(NaN, 'holds no messages to replay')]);
    assert.equal(figures.sessions, 3);
    assert.equal(figures.probes, 6);
    assert.equal(figures.verbatim, 2);
    assert.deepEqual(figures.byKind.error, { total: 6, verbatim: 2, found: 4 });
    assert.equal(figures.medianUsage, 0.5);
    assert.deepEqual(figures.unread, ['NaN: holds no messages to replay']);
  });
});
