import * as assert from 'node:assert/strict';
import { checkDrift } from '../../../src/engine/drift/driftCheck';
import { headAndTail, INTENT_HEAD_CHARS, INTENT_TAIL_CHARS, intentText } from '../../../src/engine/ledger/intentExcerpt';
import { EMPTY_LEDGER, type Ledger, type UserMessageEntry } from '../../../src/engine/model/ledgerTypes';
import { renderLedger } from '../../../src/engine/ledger/renderLedger';
import { HUGE_USER_MESSAGE_TOKENS } from '../../../src/engine/ledger/userMessageOffload';
import { charCounter } from './ledgerFixtures';

const AT = Date.UTC(2026, 0, 21, 10, 0, 0);
const NONE_LIVE: ReadonlySet<string> = new Set();
const FILE = 'sessions/s1/offloaded/20260121_100000_user_u1.md';

/** A first request with a file pasted into it: the question first, the file, a closing instruction. */
function pastedRequest(): string {
  const file = Array.from({ length: 900 }, (_, i) => `\tconst line${i} = useState(${i});  // component state`).join('\n');
  return (
    `Move the filter icon after the Sessions button in agent-sidebar.tsx.\n[file agent-sidebar.tsx]\n${file}\n` +
    `Keep the tests green and do not touch the styles.`
  );
}

function ledgerWithIntent(text: string, entry: Partial<UserMessageEntry>): Ledger {
  const tokens = Math.ceil(text.length / 4);
  return {
    ...EMPTY_LEDGER,
    intent: { text, messageId: 'u1', at: AT },
    userMessages: [
      { messageId: 'u1', at: AT, tokens, ...entry },
      { messageId: 'u2', at: AT, text: 'make the icon smaller', tokens: 5 },
    ],
  };
}

describe('session intent in the ledger', () => {
  it('shows a huge first request kept in a file by its start and end and the path, and not again among earlier messages', async () => {
    const text = pastedRequest();
    const ledger = ledgerWithIntent(text, { file: FILE, preview: text.slice(0, 200) });
    const rendered = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: 100_000, countText: charCounter().countText });
    assert.ok(rendered.text.includes('Move the filter icon after the Sessions button in agent-sidebar.tsx.'));
    assert.ok(rendered.text.includes('Keep the tests green and do not touch the styles.'));
    assert.ok(rendered.text.includes(`full text: ${FILE}`));
    assert.match(rendered.text, /\[… [\d,]+ characters left out here; [\d,]+ tokens in all; full text: /);
    assert.ok(rendered.text.length < text.length / 4, `${rendered.text.length} characters for a ${text.length}-character request`);
    assert.ok(!rendered.text.includes('**User message 1**'), 'the intent is not repeated as an earlier message');
    assert.ok(rendered.text.includes('**User message 2:**\nmake the icon smaller'));
  });

  it('shows the error lines of the part of a huge first request it leaves out, and says so', () => {
    const log = Array.from({ length: 400 }, (_, i) => `[02:${i}] INFO coupon worker ${i} applied batch ${900 + i}`);
    log.splice(200, 0, 'ModuleNotFoundError: No module named coupon_rules');
    const text = `The coupon import fails:\n${log.join('\n')}\nWhy?`;
    const shown = intentText(ledgerWithIntent(text, { file: FILE, preview: text.slice(0, 200) }), NONE_LIVE) ?? '';
    const [, gap, error, after] = /\n(\[… [^\n]+ …\])\n([^\n]+)\n([^\n]+)\n/.exec(shown) ?? [];
    assert.match(gap ?? '', /^\[… [\d,]+ characters left out here, but for the error lines below; [\d,]+ tokens in all; full text: /);
    assert.deepEqual([error, after], ['ModuleNotFoundError: No module named coupon_rules', '[…]']);
    assert.ok(shown.endsWith('Why?'));
    const plain = headAndTail(pastedRequest(), INTENT_HEAD_CHARS, INTENT_TAIL_CHARS, 'note');
    assert.match(plain, /characters left out here; note …\]\n/, 'a request whose middle holds no error says nothing more');
  });

  it('passes the drift check, which matches a long intent by its head and tail', async () => {
    const text = pastedRequest();
    const ledger = ledgerWithIntent(text, { file: FILE, preview: text.slice(0, 200) });
    const rendered = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: 100_000, countText: charCounter().countText });
    const report = checkDrift({ contextText: rendered.text, ledger, isFindable: () => false });
    assert.deepEqual(report.missing, []);
  });

  it('shortens a huge intent still in the live conversation and says where it is', () => {
    const text = pastedRequest();
    const shown = intentText(ledgerWithIntent(text, { text }), new Set(['u1']));
    assert.ok(shown !== undefined && shown.length < text.length / 4);
    assert.match(shown, /the whole message is in the conversation below/);
  });

  it('shows a first request that went to a file in a small window by its start and end, as a huge one', () => {
    // About 900 tokens: below a huge message's size, above a tenth of a 6,000-token window, so it went to a file.
    const text = `Port the exporter to the new API.\n${'Keep each column as it is; '.repeat(130)}\nThen run the export tests.`;
    assert.ok(Math.ceil(text.length / 4) < HUGE_USER_MESSAGE_TOKENS);
    const shown = intentText(ledgerWithIntent(text, { file: FILE, preview: text.slice(0, 200) }), NONE_LIVE);
    assert.ok(shown !== undefined && shown.length < text.length / 2, `${shown?.length} characters`);
    assert.ok(shown.startsWith('Port the exporter to the new API.') && shown.endsWith('Then run the export tests.'));
    assert.ok(shown.includes(`full text: ${FILE}`));
  });

  it('keeps the intent verbatim when it is small, or when its full text is nowhere else (the file could not be written)', () => {
    const small = 'Fix the login test.';
    assert.equal(intentText(ledgerWithIntent(small, { text: small }), NONE_LIVE), small);
    const huge = pastedRequest();
    assert.ok(Math.ceil(huge.length / 4) > HUGE_USER_MESSAGE_TOKENS);
    assert.equal(intentText(ledgerWithIntent(huge, { text: huge }), NONE_LIVE), huge);
  });

  it('counts whitespace runs once when it takes the start and the end, and never splits a surrogate pair', () => {
    const text = `${'👋 '.repeat(1000)}\n\n\n${'x'.repeat(3000)}\t\t\tEND 🎉`;
    const cut = headAndTail(text, INTENT_HEAD_CHARS, INTENT_TAIL_CHARS, 'note');
    const [head, , tail] = cut.split('\n');
    assert.ok(!/[\uD800-\uDBFF]$/.test(head) && !/^[\uDC00-\uDFFF]/.test(tail));
    assert.ok(tail.endsWith('END 🎉'));
    assert.equal(headAndTail('short text', 10, 10, 'note'), 'short text');
  });
});
