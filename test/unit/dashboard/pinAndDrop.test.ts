import * as assert from 'node:assert/strict';
import { CONTEXT_MESSAGE_ID } from '../../../src/engine/model/frozenContext';
import { RecoveryIndex } from '../../../src/engine/recovery/recoveryIndex';
import { messageText, type Message } from '../../../src/engine/types';
import { call, filler, result, user } from '../support/builders';
import { exchange, furnishedSession, ROOMY_BUDGET } from './dashboardFixtures';

const contextOf = (messages: readonly Message[]) => (messages[0]?.id === CONTEXT_MESSAGE_ID ? messageText(messages[0]) : '');
const liveText = (messages: readonly Message[]) =>
  messages
    .filter((m) => m.id !== CONTEXT_MESSAGE_ID)
    .flatMap((m) => m.blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'toolResult' ? b.content : b.id)))
    .join('\n');

describe('pinning an item', () => {
  it('keeps a pinned assistant message verbatim in the ledger once a compression summarizes it away', async () => {
    const { session } = await furnishedSession();
    const pinned = await session.pin('message:a-answer');
    assert.equal(pinned.ok, true, pinned.message);
    const before = await session.prepare(ROOMY_BUDGET);
    assert.doesNotMatch(contextOf(before.messages), /### Pinned/, 'not repeated while it is live');
    for (let i = 1; i <= 3; i++) await exchange(session, i);
    await session.compress(ROOMY_BUDGET);
    const after = await session.prepare(ROOMY_BUDGET);
    assert.ok(!session.messages.some((m) => m.id === 'a-answer'), 'the message was summarized away');
    const context = contextOf(after.messages);
    assert.match(context, /### Pinned\n/);
    assert.ok(context.includes(`**Pinned assistant message:**\nThe changelog lists 14 fixes.\n${filler(300)}`), 'verbatim');
  });

  it('keeps a pinned tool result as it was pinned when it is later dropped before the watermark', async () => {
    const { session } = await furnishedSession();
    await session.pin('result:c-read');
    for (let i = 1; i <= 3; i++) await exchange(session, i);
    await session.compress(ROOMY_BUDGET);
    const after = await session.prepare(ROOMY_BUDGET);
    assert.ok(contextOf(after.messages).includes(`**Pinned read_file result:**\n${filler(900, 'changelog')}`));
  });

  it('refuses to pin your own messages, which the ledger always keeps, and says so', async () => {
    const { session } = await furnishedSession();
    const outcome = await session.pin('message:u-intent');
    assert.equal(outcome.ok, false);
    assert.match(outcome.message, /always kept verbatim/);
    assert.equal(session.ledger.pinned, undefined);
  });

  it('unpins an item, and answers an unknown id with a clear error that changes nothing', async () => {
    const { session } = await furnishedSession();
    await session.pin('message:a-answer');
    assert.equal((await session.unpin('message:a-answer')).ok, true);
    assert.deepEqual(session.ledger.pinned, []);
    const state = session.state;
    const bad = await session.pin('nonsense');
    assert.equal(bad.ok, false);
    assert.match(bad.message, /Only a message or a tool result/);
    assert.equal(session.state, state);
  });
});

describe('dropping an item', () => {
  it('drops a tool result with its call; the archive keeps both and recovery finds them', async () => {
    const { session, store } = await furnishedSession();
    const before = await session.prepare(ROOMY_BUDGET);
    const outcome = await session.drop('result:c-read');
    assert.equal(outcome.ok, true, outcome.message);
    assert.match(outcome.message, /read_file call and its result/);
    const after = await session.prepare(ROOMY_BUDGET);
    assert.ok(!liveText(after.messages).includes('changelog ipsum'), 'the result left the context');
    assert.ok(!session.messages.some((m) => m.blocks.some((b) => b.type === 'toolCall' && b.id === 'c-read')), 'its call too');
    assert.ok(liveText(after.messages).includes('Reading the changelog.'), 'the text of the calling message stays');
    assert.ok(before.tokens - after.tokens > 800);
    const dropped = session.state.history.find((e) => e.kind === 'drop');
    assert.ok(dropped && dropped.savedTokens > 800, 'the event says what it saved');
    const index = await RecoveryIndex.build(store, [session.id]);
    assert.ok(
      (await index.search('changelog ipsum dolor')).some((h) => h.source === 'archive'),
      'recoverable from the archive',
    );
  });

  it('drops your message from the ledger too, since you asked for it to go', async () => {
    const { session } = await furnishedSession();
    await session.add([user('Also paste the whole 3.9 changelog here, please.', 'u-extra')]);
    await session.drop('message:u-extra');
    await exchange(session, 1);
    await session.compress(ROOMY_BUDGET);
    const after = await session.prepare(ROOMY_BUDGET);
    assert.ok(!contextOf(after.messages).includes('whole 3.9 changelog'));
    assert.ok(session.ledger.userMessages.every((e) => e.messageId !== 'u-extra'));
  });

  it('clears the watermark when the call it marks is dropped', async () => {
    const { session } = await furnishedSession();
    await session.add([call('c-mark', 'ctx_checkpoint', {}), result('c-mark', 'Checkpoint noted.')]);
    await session.prepare(ROOMY_BUDGET);
    assert.equal(session.state.watermark, 'c-mark');
    await session.drop('result:c-mark');
    assert.equal(session.state.watermark, undefined);
  });

  it('retires a dropped checkpoint, keeping its summary', async () => {
    const { session } = await furnishedSession();
    await exchange(session, 1);
    await session.compress(ROOMY_BUDGET);
    const [checkpoint] = session.checkpoints;
    const outcome = await session.drop(`checkpoint:${checkpoint.id}`);
    assert.equal(outcome.ok, true);
    assert.deepEqual(session.checkpoints, []);
    assert.deepEqual(
      session.state.retiredCheckpoints.map((r) => [r.checkpoint.id, r.reason]),
      [[checkpoint.id, 'dropped']],
    );
  });

  it('refuses to drop the ledger or an item no longer in the context', async () => {
    const { session } = await furnishedSession();
    const state = session.state;
    assert.match((await session.drop('ledger:goals')).message, /the ledger is never dropped/);
    assert.match((await session.drop('message:gone')).message, /no longer in the context/);
    assert.equal(session.state, state);
  });
});

describe('offloading an item now', () => {
  it('writes a kept tool result to a file and leaves its preview and path, as tier 1 does', async () => {
    const { session, store } = await furnishedSession();
    const outcome = await session.offloadNow('result:c-read');
    assert.equal(outcome.ok, true, outcome.message);
    const record = session.offloads.find((o) => o.callId === 'c-read');
    assert.ok(record);
    assert.equal(await store.read(record.file), filler(900, 'changelog'));
    const content = session.messages.flatMap((m) => m.blocks).find((b) => b.type === 'toolResult' && b.callId === 'c-read');
    assert.match(content?.type === 'toolResult' ? content.content : '', /^## Offloaded: read_file Result/);
    assert.ok(session.ledger.tools.offloaded.some((o) => o.callId === 'c-read'));
    assert.equal(session.state.history[session.state.history.length - 1].name, 'item-offloaded');
  });

  it('refuses a result offloaded already or too small to gain anything', async () => {
    const { session } = await furnishedSession();
    await session.add([call('c-tiny', 'stat', {}), result('c-tiny', 'ok', false, 'stat')]);
    assert.match((await session.offloadNow('result:c-log')).message, /offloaded already/);
    assert.match((await session.offloadNow('result:c-tiny')).message, /only 1 tokens/);
    assert.match((await session.offloadNow('message:a-answer')).message, /Only a tool result/);
  });
});
