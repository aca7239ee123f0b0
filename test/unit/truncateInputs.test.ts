import * as assert from 'node:assert/strict';
import { truncatePersistedInputs } from '../../src/engine/tiers/truncateInputs';
import type { ToolCallBlock } from '../../src/engine/types';
import { assistant, call, filler, result, user } from './support/builders';
import { sessionRig } from './support/session';

const callBlock = (rig: ReturnType<typeof sessionRig>, id: string): ToolCallBlock => {
  for (const m of rig.session.messages) for (const b of m.blocks) if (b.type === 'toolCall' && b.id === id) return b;
  throw new Error(`no call ${id}`);
};

describe('tier 2: truncate old tool inputs already on disk', () => {
  const written = filler(3_000, 'code');

  async function rigAbove50Percent(onDisk: string | undefined) {
    const rig = sessionRig();
    if (onDisk !== undefined) rig.files.files.set('src/app.ts', onDisk);
    await rig.session.add([
      user('write the app'),
      call('w1', 'write_file', { path: 'src/app.ts', content: written }),
      result('w1', 'ok'),
      assistant('Written.'),
      user('next'),
      assistant('ok'),
      user('and then?'),
    ]);
    return rig;
  }

  it('replaces a verified write with the truncated format when usage is above 50%', async () => {
    const rig = await rigAbove50Percent(written);
    const prepared = await rig.session.prepare(5_000); // ~3,000 tokens of 5,000: 60%
    const input = callBlock(rig, 'w1').input;
    assert.equal(input.path, 'src/app.ts');
    assert.match(String(input.content), /^## Tool Call: write_file\n\*\*Original Size:\*\* [\d,]+ tokens\n\*\*Path:\*\* src\/app\.ts/);
    assert.match(String(input.content), /\*\*Status:\*\* Content persisted to disk ✓/);
    assert.equal(prepared.events[0].kind, 'truncate');
    assert.ok(prepared.tokens < 1000);
    const archived = await rig.session.readArchive();
    const original = archived.flatMap((m) => m.blocks).find((b) => b.type === 'toolCall' && b.id === 'w1');
    assert.equal(original?.type === 'toolCall' && original.input.content, written);
  });

  it('leaves the input alone below the trigger', async () => {
    const rig = await rigAbove50Percent(written);
    await rig.session.prepare(100_000);
    assert.equal(callBlock(rig, 'w1').input.content, written);
  });

  it('leaves the input alone when the file is missing or holds something else', async () => {
    for (const disk of [undefined, 'something else entirely']) {
      const rig = await rigAbove50Percent(disk);
      await rig.session.prepare(5_000);
      assert.equal(callBlock(rig, 'w1').input.content, written);
    }
  });

  it('truncates an edit whose new text is in the file', async () => {
    const rig = sessionRig();
    const fragment = filler(1_000, 'edit');
    rig.files.files.set('/abs/lib.py', `header\n${fragment}\nfooter`);
    await rig.session.add([
      call('e1', 'Edit', { file_path: '/abs/lib.py', old_string: 'x', new_string: fragment }),
      result('e1', 'ok'),
      user('a'),
      assistant('b'),
      user('c'),
    ]);
    await rig.session.prepare(1_800);
    const input = callBlock(rig, 'e1').input;
    assert.match(String(input.new_string), /Inserted \d+ lines by edit/);
    assert.equal(input.old_string, 'x');
  });

  it('never touches the most recent messages', async () => {
    const rig = sessionRig({ recentMessagesKept: 3 });
    rig.files.files.set('src/app.ts', written);
    await rig.session.add([
      user('go'),
      call('w1', 'write_file', { path: 'src/app.ts', content: written }),
      result('w1', 'ok'),
      assistant('done'),
    ]);
    await rig.session.prepare(4_000);
    assert.equal(callBlock(rig, 'w1').input.content, written);
  });

  it('reads a file once a pass, however many edits it checks against it, and still checks each edit', async () => {
    const fragments = ['alpha', 'beta', 'gamma'].map((word) => filler(1_000, word));
    const onDisk = `start\n${fragments[0]}\n${fragments[2]}\nend`;
    let reads = 0;
    const files = {
      readText: async (path: string) => {
        reads++;
        return path === '/abs/lib.py' ? onDisk : undefined;
      },
    };
    const messages = [
      ...fragments.flatMap((fragment, i) => [
        call(`e${i}`, 'Edit', { file_path: '/abs/lib.py', old_string: 'x', new_string: fragment }),
        result(`e${i}`, 'ok'),
      ]),
      user('done?'),
    ];
    const { records } = await truncatePersistedInputs(messages, 1, { files, countText: async (t) => Math.ceil(t.length / 4), now: 0 });
    assert.deepEqual(
      records.map((r) => r.callId),
      ['e0', 'e2'],
    );
    assert.equal(reads, 1);
  });

  it('counts a call that kept its content once, until its file changes, and then truncates it', async () => {
    const fragment = filler(1_000, 'delta');
    let onDisk = 'nothing of it yet';
    const files = { readText: async () => onDisk };
    const counted: string[] = [];
    const countText = async (t: string) => {
      counted.push(t);
      return Math.ceil(t.length / 4);
    };
    const messages = [
      call('e0', 'Edit', { file_path: '/abs/lib.py', old_string: 'x', new_string: fragment }),
      result('e0', 'ok'),
      user('done?'),
    ];
    for (let pass = 0; pass < 3; pass++) {
      const { records } = await truncatePersistedInputs(messages, 1, { files, countText, now: 0 });
      assert.equal(records.length, 0);
    }
    onDisk = `start\n${fragment}\nend`;
    const { records } = await truncatePersistedInputs(messages, 1, { files, countText, now: 0 });
    assert.deepEqual(
      records.map((r) => r.callId),
      ['e0'],
    );
    assert.equal(counted.filter((t) => t === fragment).length, 1, 'the unpersisted edit was never counted; the persisted one once');
  });

  it('looks again at a small input counted by estimate, and not again once counted exactly', async () => {
    const small = 'const x = 1;';
    const files = { readText: async () => `a\n${small}\nb` };
    let counts = 0;
    let exact = false;
    const deps = {
      files,
      countText: async (t: string) => {
        counts++;
        return Math.ceil(t.length / 4);
      },
      countsExact: () => exact,
      now: 0,
    };
    const messages = [
      call('e0', 'Edit', { file_path: '/abs/a.ts', old_string: 'x', new_string: small }),
      result('e0', 'ok'),
      user('done?'),
    ];
    await truncatePersistedInputs(messages, 1, deps);
    await truncatePersistedInputs(messages, 1, deps);
    assert.equal(counts, 2);
    exact = true;
    await truncatePersistedInputs(messages, 1, deps);
    await truncatePersistedInputs(messages, 1, deps);
    assert.equal(counts, 3);
  });
});
