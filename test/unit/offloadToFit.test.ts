import * as assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS } from '../../src/engine/levels';
import { USER_TEXT } from '../../src/engine/tiers/offloadToFit';
import { message, textBlock, toolCallBlock, toolResultBlock, type Message } from '../../src/engine/types';
import { filler, user } from './support/builders';
import { sessionRig, storeWithFullOffloadedFolder } from './support/session';

/**
 * One round of `count` parallel reads, the results in one message as Copilot sends them, each of `tokens` tokens:
 * under the offload threshold, too large together.
 */
function parallelReads(count: number, tokens: number): Message[] {
  const ids = Array.from({ length: count }, (_, i) => `read-${i}`);
  return [
    message(
      'a1',
      'assistant',
      ids.map((id, i) => toolCallBlock(id, 'read_file', { path: `src/part${i}.ts` })),
    ),
    message(
      't1',
      'tool',
      ids.map((id, i) => toolResultBlock(id, filler(tokens, `part${i}`))),
    ),
  ];
}

const BUDGET = 6_000;

describe('live messages too large for the budget', () => {
  it('send their largest tool results to files, under the offload threshold as they are, until the context is below RED', async () => {
    const rig = sessionRig();
    const round = parallelReads(8, 1_200);
    await rig.session.add([user('Read every part of the parser.'), ...round]);
    const prepared = await rig.session.prepare(BUDGET);

    assert.ok(prepared.tokens <= BUDGET, `${prepared.tokens} tokens`);
    assert.ok(prepared.usage < DEFAULT_THRESHOLDS.redAt, `usage ${prepared.usage}`);
    const offloaded = rig.session.offloads.filter((o) => o.toolName === 'read_file');
    assert.ok(offloaded.length >= 1 && offloaded.length < 8, `${offloaded.length} of 8 results`);
    const [first] = offloaded;
    const original = round.flatMap((m) => m.blocks).find((b) => b.type === 'toolResult' && b.callId === first.callId);
    assert.ok(original?.type === 'toolResult');
    assert.equal(await rig.store.read(first.file), original.content);
    const archived = await rig.session.readArchive();
    assert.deepEqual(
      archived.filter((m) => m.role === 'tool'),
      round.filter((m) => m.role === 'tool'),
      'the archive keeps every result as it arrived',
    );
  });

  it('send what the user typed to a file only when the results cannot make the request fit, its first lines kept', async () => {
    const rig = sessionRig();
    const pasted = `Why does this build fail?\n${filler(10_000, 'pasted')}`;
    await rig.session.add([message('u1', 'user', [textBlock(pasted)])]);
    const prepared = await rig.session.prepare(BUDGET);

    assert.ok(prepared.tokens <= BUDGET, `${prepared.tokens} tokens`);
    const [record] = rig.session.offloads;
    assert.equal(record.toolName, USER_TEXT);
    assert.equal(await rig.store.read(record.file), pasted);
    const live = rig.session.messages.find((m) => m.id === 'u1');
    const preview = live?.blocks[0];
    assert.ok(preview?.type === 'text' && preview.injected !== true, 'still the user’s words, shortened');
    assert.match(preview.text, /^## Offloaded: user text of a message too large for the window\n\*\*Path:\*\*/);
    assert.ok(preview.text.includes('Why does this build fail?'));
    assert.match(preview.text, /ctx_read_offloaded/);
    assert.deepEqual((await rig.session.readArchive()).find((m) => m.id === 'u1')?.blocks, [textBlock(pasted)]);
  });

  it('take the tool results before what the user typed', async () => {
    const rig = sessionRig();
    const typed = filler(2_500, 'typed');
    await rig.session.add([message('u1', 'user', [textBlock(typed)]), ...parallelReads(3, 1_500)]);
    const prepared = await rig.session.prepare(BUDGET);

    assert.ok(prepared.tokens <= BUDGET, `${prepared.tokens} tokens`);
    assert.ok(rig.session.offloads.length >= 1);
    assert.ok(rig.session.offloads.every((o) => o.toolName === 'read_file'));
    assert.deepEqual(rig.session.messages.find((m) => m.id === 'u1')?.blocks, [textBlock(typed)]);
  });

  it('are left alone while the request fits the budget, CRITICAL as it may be', async () => {
    const rig = sessionRig();
    const typed = message('u1', 'user', [textBlock(filler(5_200, 'pasted'))]);
    await rig.session.add([typed]);
    const prepared = await rig.session.prepare(BUDGET);
    assert.equal(prepared.level, 'CRITICAL');
    assert.ok(prepared.tokens <= BUDGET);
    assert.equal(rig.session.offloads.length, 0);
    assert.deepEqual(
      rig.session.messages.find((m) => m.id === 'u1'),
      typed,
    );
  });

  it('stay in the context when their file cannot be written, and the user is told', async () => {
    const rig = sessionRig({}, storeWithFullOffloadedFolder());
    const typed = message('u1', 'user', [textBlock(filler(10_000, 'pasted'))]);
    await rig.session.add([typed]);
    await rig.session.prepare(BUDGET);
    assert.equal(rig.session.offloads.length, 0);
    assert.deepEqual(
      rig.session.messages.find((m) => m.id === 'u1'),
      typed,
    );
    assert.ok(
      rig.session.warnings.some((w) => /user text of message u1 could not be written.*ENOSPC.*stays in the context/.test(w.message)),
    );
  });
});
