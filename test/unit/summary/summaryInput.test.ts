import * as assert from 'node:assert/strict';
import { shortenMiddle } from '../../../src/engine/text/shorten';
import { renderMessagesForSummary } from '../../../src/engine/summary/summaryInput';
import { assistant, call, result, user } from '../support/builders';

describe('summary input', () => {
  it('renders each message under a heading with its role and id', () => {
    const text = renderMessagesForSummary([user('Fix the login test', 'u1'), assistant('On it.', 'a1')]);
    assert.equal(text, '--- user (u1) ---\nFix the login test\n\n--- assistant (a1) ---\nOn it.');
  });

  it('renders tool calls as name(input JSON) and results with the tool name and status', () => {
    const text = renderMessagesForSummary([
      call('c1', 'bash', { command: 'npm test' }, 'Running the tests.'),
      result('c1', 'exit code 1', true),
    ]);
    assert.ok(text.includes('Running the tests.\nTool call: bash({"command":"npm test"})'));
    assert.ok(text.includes('Tool result from bash (error):\nexit code 1'));
  });

  it('shortens a long tool input in the middle', () => {
    const text = renderMessagesForSummary([call('c1', 'write_file', { path: 'a.ts', content: 'x'.repeat(5000) })], {
      maxToolInputChars: 200,
    });
    const line = text.split('\n').slice(1).join('\n');
    assert.ok(line.startsWith('Tool call: write_file({"path":"a.ts","content":"xxx'));
    assert.match(line, /\[… \d+ characters omitted …\]/);
    assert.ok(line.endsWith('xxx"})'));
    assert.ok(line.length < 300);
  });

  it('caps each tool result, keeping its head and tail around a note of what was left out', () => {
    const content = `HEAD ${'m'.repeat(10_000)} TAIL`;
    const text = renderMessagesForSummary([call('c1', 'read_file', { path: 'big.txt' }), result('c1', content)], { maxResultChars: 500 });
    const rendered = text.slice(text.indexOf('Tool result from read_file (ok):\n') + 'Tool result from read_file (ok):\n'.length);
    assert.ok(rendered.startsWith('HEAD m'));
    assert.ok(rendered.endsWith('m TAIL'));
    const omitted = Number(/\[… (\d+) characters omitted …\]/.exec(rendered)?.[1]);
    assert.equal(omitted, content.length - rendered.replace(/\n\[… \d+ characters omitted …\]\n/, '').length);
    assert.ok(rendered.length <= 500);
  });

  it('uses the tool name carried by a result when its call is not among the messages', () => {
    assert.ok(renderMessagesForSummary([result('c9', 'done', false, 'grep')]).includes('Tool result from grep (ok):'));
  });

  it('shortens by the number of characters it says it left out', () => {
    const text = 'a'.repeat(300) + 'b'.repeat(300);
    const short = shortenMiddle(text, 200);
    const kept = short.replace(/\n\[… \d+ characters omitted …\]\n/, '');
    assert.equal(Number(/\[… (\d+) characters omitted …\]/.exec(short)?.[1]), text.length - kept.length);
    assert.ok(short.length <= 200);
    assert.equal(shortenMiddle('short', 200), 'short');
  });
});
