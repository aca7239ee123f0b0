import * as assert from 'node:assert/strict';
import { appended } from '../../../src/engine/appendedList';
import { SpanOriginals } from '../../../src/engine/checkpoints/spanOriginals';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { readConversationFacts } from '../../../src/engine/summary/conversationFacts';
import type { ArchivedMessages } from '../../../src/engine/model/archivedMessages';
import type { OffloadRecord } from '../../../src/engine/model/offloadRecord';
import { messageContentText, type Message } from '../../../src/engine/types';
import { assistant, call, result } from '../support/builders';

/** Tool rounds `from`..`to`, each a call and its result, ids `m<n>c` and `m<n>r`. */
function rounds(from: number, to: number): Message[] {
  return Array.from({ length: to - from + 1 }, (_, i) => {
    const n = from + i;
    return [
      { ...call(`call${n}`, 'Bash', { command: `./step-${n}.sh` }), id: `m${n}c` },
      { ...result(`call${n}`, `output of step ${n}`), id: `m${n}r` },
    ];
  }).flat();
}

/** The archive's view of these messages, recording every id looked up. */
function archiveOf(messages: readonly Message[]): { archived: ArchivedMessages; lookedUp: string[] } {
  const lookedUp: string[] = [];
  const byId = new Map(messages.map((m, i) => [m.id, { m, at: i + 1 }]));
  return {
    lookedUp,
    archived: {
      count: messages.length,
      idAt: (index) => messages[index]?.id,
      read: (from, to) => Promise.resolve(messages.slice(from, to)),
      byId: (id) => {
        lookedUp.push(id);
        return Promise.resolve(byId.get(id)?.m);
      },
      byIds: (ids) => {
        lookedUp.push(...ids);
        return Promise.resolve(ids.map((id) => byId.get(id)?.m));
      },
      position: (id) => byId.get(id)?.at ?? 0,
    },
  };
}

const offload = (n: number): OffloadRecord => ({
  callId: `call${n}`,
  toolName: 'Bash',
  file: `offloaded/call${n}.txt`,
  tokens: 20_000,
  savedTokens: 19_000,
  kind: 'text',
  isError: false,
  at: n,
  estimated: false,
});

describe('span originals: the merged span read once', () => {
  it('reads a span that grew at its end as reading it whole would, looking up only its new messages, other spans read between', async () => {
    const messages = rounds(1, 30);
    const { archived, lookedUp } = archiveOf(messages);
    const offloads = [offload(3)];
    const spans = new SpanOriginals();
    const ids = messages.map((m) => m.id);
    await spans.read(ids.slice(0, 40), archived, offloads);
    await spans.read(ids.slice(40, 50), archived, offloads);
    lookedUp.length = 0;
    const grown = await spans.read(ids, archived, offloads);
    assert.deepEqual(lookedUp, ids.slice(40));
    const whole = await new SpanOriginals().read(ids, archiveOf(messages).archived, offloads);
    assert.deepEqual(grown.record, whole.record);
    assert.deepEqual(grown.conversation, whole.conversation);
    const read = await grown.messages();
    assert.deepEqual(read, await whole.messages());
    assert.match(messageContentText(read[5]), /^\[Bash result of 20,000 tokens, offloaded to offloaded\/call3\.txt\]/);
  });

  it('reads the whole span again when the offloads changed, so a result offloaded since reads as its reference', async () => {
    const messages = rounds(1, 10);
    const { archived, lookedUp } = archiveOf(messages);
    const spans = new SpanOriginals();
    const ids = messages.map((m) => m.id);
    await spans.read(ids.slice(0, 6), archived, []);
    lookedUp.length = 0;
    const again = await spans.read(ids, archived, [offload(2)]);
    assert.deepEqual(lookedUp, ids);
    assert.match(messageContentText((await again.messages())[3]), /offloaded to offloaded\/call2\.txt/);
  });

  it('keeps a long span while shorter ones are read again and again', async () => {
    const messages = rounds(1, 30);
    const { archived, lookedUp } = archiveOf(messages);
    const spans = new SpanOriginals();
    const ids = messages.map((m) => m.id);
    const none: OffloadRecord[] = [];
    await spans.read(ids.slice(0, 40), archived, none);
    for (let i = 0; i < 20; i++) await spans.read(ids.slice(40, 44), archived, none);
    lookedUp.length = 0;
    await spans.read(ids, archived, none);
    assert.deepEqual(lookedUp, ids.slice(40));
  });

  it('reads only the new messages when the results offloaded since are after the span, and all when one is in it', async () => {
    const messages = rounds(1, 30);
    const { archived, lookedUp } = archiveOf(messages);
    const spans = new SpanOriginals();
    const ids = messages.map((m) => m.id);
    const before = [offload(1)];
    await spans.read(ids.slice(0, 40), archived, before);
    lookedUp.length = 0;
    const later = appended(before, [offload(25)]);
    const grown = await spans.read(ids, archived, later);
    assert.deepEqual(lookedUp, ids.slice(40));
    assert.match(messageContentText((await grown.messages())[49]), /offloaded to offloaded\/call25\.txt/);
    lookedUp.length = 0;
    const reread = await spans.read(ids, archived, appended(later, [offload(4)]));
    assert.deepEqual(lookedUp, ids);
    assert.match(messageContentText((await reread.messages())[7]), /offloaded to offloaded\/call4\.txt/);
  });

  it('does not keep a span whose messages were not all archived yet: they are found once they are', async () => {
    const messages = rounds(1, 10);
    const spans = new SpanOriginals();
    const ids = messages.map((m) => m.id);
    const notYet = messages.filter((m) => m.id !== 'm2c');
    const none: OffloadRecord[] = [];
    const partial = await spans.read(ids.slice(0, 8), archiveOf(notYet).archived, none);
    assert.equal((await partial.messages()).length, 7);
    const whole = await spans.read(ids, archiveOf(messages).archived, none);
    assert.deepEqual(
      (await whole.messages()).map((m) => m.id),
      ids,
    );
  });

  it("reads an offloaded result as its reference, its start and its end, where a runner's verdict stands", async () => {
    const body = Array.from({ length: 400 }, (_, i) => `tests/test_${i}.py::test_case PASSED`);
    const output = ['============ test session starts ============', ...body, '============ 2 errors in 0.29s ============'].join('\n');
    const messages = [
      { ...call('call1', 'Bash', { command: 'pytest' }), id: 'm1c' },
      { ...result('call1', output), id: 'm1r' },
    ];
    const [, read] = await (await new SpanOriginals().read(['m1c', 'm1r'], archiveOf(messages).archived, [offload(1)])).messages();
    const text = messageContentText(read);
    assert.match(
      text,
      /^\[Bash result of 20,000 tokens, offloaded to offloaded\/call1\.txt\]\ntest session starts|^\[Bash result[^\n]*\n=+ test session starts/,
    );
    assert.match(text, /2 errors in 0\.29s/);
    assert.ok(text.length < 2000, `the reference stays short (${text.length} characters)`);
  });

  it('keeps what a summary reads of a span, not its messages: a merge after them records and reads the span as reading it whole', async () => {
    const said = (n: number): Message => assistant(n % 4 === 0 ? `[DECISION] keep step ${n}` : `Now let me run step ${n}.`, `a${n}`);
    // A result whose call is in the part read before: the longer span finds it without that part's messages.
    const messages = [
      ...rounds(1, 12),
      said(1),
      ...rounds(13, 20),
      said(4),
      { ...result('call20', 'Error: step 20 failed again', true), id: 'late' },
    ];
    const { archived, lookedUp } = archiveOf(messages);
    const ids = messages.map((m) => m.id);
    const spans = new SpanOriginals();
    const none: OffloadRecord[] = [];
    await spans.read(ids.slice(0, 30), archived, none);
    lookedUp.length = 0;
    const merged = await spans.read(ids, archived, none);
    assert.deepEqual(lookedUp, ids.slice(30), 'only the new messages are read');
    assert.deepEqual(merged.record, recordToolActivity(messages));
    assert.deepEqual(merged.conversation, readConversationFacts(messages));
    lookedUp.length = 0;
    assert.deepEqual(await merged.messages(), messages);
    assert.deepEqual(lookedUp, ids, 'the messages are read back from the archive: none was kept');
  });
});
