import * as assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS } from '../../src/engine/levels';
import { AGENT_TEXT, USER_TEXT } from '../../src/engine/tiers/offloadToFit';
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
  it("send the whole file a call was given to a file before the agent's text, and the agent's text before the user's", async () => {
    const rig = sessionRig();
    const written = filler(6_000, 'module');
    await rig.session.add([
      user('Write the parser module.'),
      message('a1', 'assistant', [
        textBlock('Writing it now.'),
        toolCallBlock('w1', 'create_file', { path: 'src/parser.ts', content: written }),
      ]),
      message('t1', 'tool', [toolResultBlock('w1', 'Created src/parser.ts')]),
      message('a2', 'assistant', [textBlock(`Here is what it holds:\n${filler(3_000, 'quoted')}`)]),
    ]);
    const prepared = await rig.session.prepare(BUDGET);

    assert.ok(prepared.tokens <= BUDGET, `${prepared.tokens} tokens`);
    const names = rig.session.offloads.map((o) => o.toolName);
    assert.equal(names[0], 'create_file input', names.join(', '));
    const [input] = rig.session.offloads;
    assert.equal(await rig.store.read(input.file), written, 'the file holds what the call was given');
    const call = rig.session.messages.flatMap((m) => m.blocks).find((b) => b.type === 'toolCall' && b.id === 'w1');
    assert.ok(call?.type === 'toolCall' && call.input.path === 'src/parser.ts', 'the call keeps its other fields');
    assert.ok(!names.includes(USER_TEXT), 'what the user typed stays');
    const archived = await rig.session.readArchive();
    const archivedCall = archived.flatMap((m) => m.blocks).find((b) => b.type === 'toolCall' && b.id === 'w1');
    assert.ok(archivedCall?.type === 'toolCall' && archivedCall.input.content === written, 'the archive keeps the call as it arrived');
    if (names.includes(AGENT_TEXT)) assert.ok(names.indexOf(AGENT_TEXT) > 0, "the agent's text only after the call's input");
  });

  it('never send a preview to a file again, however many requests stay over the budget', async () => {
    const rig = sessionRig();
    await rig.session.add([user('Explain the whole parser.'), message('a1', 'assistant', [textBlock(filler(9_000, 'explained'))])]);
    for (let i = 0; i < 3; i++) {
      await rig.session.prepare(BUDGET);
      await rig.session.add([message(`u${i + 2}`, 'user', [textBlock(`And part ${i}?`)])]);
    }
    const agent = rig.session.offloads.filter((o) => o.toolName === AGENT_TEXT);
    assert.equal(agent.length, 1, agent.map((o) => o.callId).join(', '));
  });
  it('tell the user once, in one line, when the instructions alone are larger than the budget', async () => {
    const rig = sessionRig();
    await rig.session.add([message('s1', 'system', [textBlock(filler(8_000, 'instructions'))]), user('Start.')]);
    await rig.session.prepare(BUDGET);
    await rig.session.add([user('Go on.')]);
    await rig.session.prepare(BUDGET);
    const told = rig.session.warnings.filter((w) =>
      /more than the budget of 6,000, after every compression: the instructions alone take/.test(w.message),
    );
    assert.equal(told.length, 1, rig.session.warnings.map((w) => w.message).join('\n'));
    assert.ok(!told[0].message.includes('\n'));
  });
});
