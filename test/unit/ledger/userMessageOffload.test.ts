import * as assert from 'node:assert/strict';
import { EMPTY_LEDGER, type Ledger } from '../../../src/engine/model/ledgerTypes';
import { HUGE_USER_MESSAGE_TOKENS, offloadHugeUserMessages, userMessagePreview } from '../../../src/engine/ledger/userMessageOffload';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';

const NOW = Date.UTC(2026, 0, 21, 10, 35, 22);
const FOLDER = 'sessions/s1/user';

/** A store whose writes fail: a full or read-only disk. */
class FailingStore extends MemoryStore {
  override async write(): Promise<void> {
    throw new Error('ENOSPC: no space left on device');
  }
}

const hugeText = (): string =>
  Array.from({ length: 3000 }, (_, i) => `line ${i}: Привет 👋 “quoted” \t tab and trailing space `).join('\n') + '\n';

function ledgerWith(text: string, messageId = 'msg/1:..'): Ledger {
  return {
    ...EMPTY_LEDGER,
    userMessages: [
      { messageId, at: NOW, text, tokens: Math.ceil(text.length / 4) },
      { messageId: 'small', at: NOW, text: 'short', tokens: 2 },
    ],
  };
}

describe('huge user message offload', () => {
  it('writes the exact text of a huge message that is no longer live and keeps a preview and the path', async () => {
    const store = new MemoryStore();
    const text = hugeText();
    const ledger = ledgerWith(text);
    const out = await offloadHugeUserMessages(ledger, { liveMessageIds: new Set(), store, folder: FOLDER, now: NOW });
    assert.deepEqual(out.files, [`${FOLDER}/20260121_103522_user_msg_1.md`]);
    assert.deepEqual(out.failures, []);
    assert.equal(await store.read(out.files[0]), text);
    const entry = out.ledger.userMessages[0];
    assert.equal(entry.text, undefined);
    assert.equal(entry.file, out.files[0]);
    assert.equal(entry.tokens, ledger.userMessages[0].tokens);
    assert.ok(entry.preview !== undefined && entry.preview.startsWith('line 0: Привет 👋'));
    assert.ok(entry.preview.length <= 802);
    assert.ok(entry.preview.split('\n').length <= 16);
    assert.equal(out.ledger.userMessages[1], ledger.userMessages[1]);
    assert.equal(ledger.userMessages[0].text, text);
  });

  it("keeps a long message's end in its preview as well as its start: a pasted log's error, the request after it", () => {
    const frames = Array.from({ length: 60 }, (_, i) => `  File "/srv/ledger/import.py", line ${i + 10}, in step_${i}\n    run_${i}()`);
    const text = [
      'The nightly import stops with this:',
      '',
      ...frames,
      "ValueError: invalid literal for int() with base 10: '12a'",
      '',
      'Can you make it skip such rows?',
      '',
    ].join('\n');
    const preview = userMessagePreview(text);
    assert.ok(preview.startsWith('The nightly import stops with this:'), preview);
    assert.ok(preview.includes("ValueError: invalid literal for int() with base 10: '12a'"), preview);
    assert.ok(preview.endsWith('Can you make it skip such rows?'), preview);
    assert.ok(preview.includes('\n[…]\n'), 'says that lines were left out');
    assert.ok(preview.length <= 800 && preview.split('\n').length <= 15, `${preview.length} characters`);
    const oneLong = `${'a'.repeat(2000)} the ask at the end`;
    assert.ok(userMessagePreview(oneLong).endsWith('the ask at the end'), 'a long single line keeps its end too');
    assert.equal(userMessagePreview('short\nmessage\n'), 'short\nmessage\n', 'a short message is its own preview');
  });

  it('shows the error lines a pasted log holds between the start and the end its preview keeps, and no other line of it', () => {
    const log = (from: number, n: number, what: string) =>
      Array.from({ length: n }, (_, i) => `[02:${String(from + i).padStart(2, '0')}] INFO refund worker ${i} ${what} batch ${300 + i}`);
    const text = [
      'The refund job broke overnight:',
      ...log(0, 30, 'settled'),
      "TypeError: Cannot read properties of undefined (reading 'refundId')",
      '    at settle (src/refunds/job.ts:41:7)',
      ...log(70, 12, 'queued'),
      'Traceback (most recent call last):',
      '  File "/srv/refunds/notify.py", line 88, in send',
      '    mailer.deliver(batch)',
      'ConnectionRefusedError: [Errno 111] Connection refused',
      ...log(30, 20, 'retried'),
      'npm ERR! code ELIFECYCLE',
      ...log(50, 20, 'waited on'),
      'What is going on?',
    ].join('\n');
    const preview = userMessagePreview(text);
    const lines = preview.split('\n');
    const error = lines.indexOf("TypeError: Cannot read properties of undefined (reading 'refundId')");
    const npm = lines.indexOf('npm ERR! code ELIFECYCLE');
    assert.ok(error > 0 && npm > error, preview);
    assert.deepEqual([lines[error - 1], lines[error + 1], lines[npm + 1]], ['[…]', '[…]', '[…]'], 'each stands between gap lines');
    assert.ok(preview.startsWith('The refund job broke overnight:') && preview.endsWith('What is going on?'), preview);
    assert.ok(!preview.includes('at settle (src/refunds/job.ts:41:7)'), 'a stack frame is no error line of its own');
    assert.ok(!preview.includes('Traceback (most recent call last)'), "nor a traceback's header: its exception is");
    assert.ok(!preview.includes('worker 20 settled'), 'the log between them stays out');
  });

  it('leaves live messages, small messages and messages already in a file alone', async () => {
    const store = new MemoryStore();
    const ledger = ledgerWith(hugeText(), 'live');
    const live = await offloadHugeUserMessages(ledger, { liveMessageIds: new Set(['live']), store, folder: FOLDER, now: NOW });
    assert.equal(live.ledger, ledger);
    assert.deepEqual(live.files, []);
    const atLimit = ledgerWith('x'.repeat(HUGE_USER_MESSAGE_TOKENS * 4));
    assert.equal((await offloadHugeUserMessages(atLimit, { liveMessageIds: new Set(), store, folder: FOLDER, now: NOW })).ledger, atLimit);
    const once = await offloadHugeUserMessages(ledgerWith(hugeText()), { liveMessageIds: new Set(), store, folder: FOLDER, now: NOW });
    const again = await offloadHugeUserMessages(once.ledger, { liveMessageIds: new Set(), store, folder: FOLDER, now: NOW + 1000 });
    assert.deepEqual(again.files, []);
    assert.equal(again.ledger, once.ledger);
  });

  it('counts a message as huge from a tenth of a small budget, never below twice the preview it leaves', async () => {
    const run = (tokens: number, budgetTokens?: number) =>
      offloadHugeUserMessages(ledgerWith('w'.repeat(tokens * 4)), {
        liveMessageIds: new Set(),
        store: new MemoryStore(),
        folder: FOLDER,
        now: NOW,
        ...(budgetTokens !== undefined ? { budgetTokens } : {}),
      });
    // A command's 1,000-token prompt in a 4,000-token window: a quarter of every request, for good.
    assert.equal((await run(1000, 4000)).files.length, 1);
    assert.equal((await run(1000, 200_000)).files.length, 0, 'a large window keeps it whole');
    assert.equal((await run(1000)).files.length, 0, 'with no budget known, only a huge message goes');
    assert.equal((await run(300, 2000)).files.length, 0, 'its preview would take about as much room');
  });

  it('keeps the message verbatim and reports the failure when the file cannot be written', async () => {
    const text = hugeText();
    const ledger = ledgerWith(text);
    const out = await offloadHugeUserMessages(ledger, { liveMessageIds: new Set(), store: new FailingStore(), folder: FOLDER, now: NOW });
    assert.deepEqual(out.files, []);
    assert.deepEqual(out.failures, ['msg/1:..: ENOSPC: no space left on device']);
    assert.equal(out.ledger.userMessages[0].text, text);
    assert.equal(out.ledger.userMessages[0].file, undefined);
  });
});
