import * as assert from 'node:assert/strict';
import { renderContext } from '../../../src/cli/replay/renderContext';
import { message, textBlock, toolCallBlock, toolResultBlock } from '../../../src/engine/types';

describe('the rendered context', () => {
  const messages = [
    message('u1', 'user', [textBlock('Fix `parse()` please')], Date.UTC(2026, 0, 2, 3, 4, 5)),
    message('a1', 'assistant', [textBlock('Reading it.'), toolCallBlock('c1', 'Read', { file_path: 'src/a.ts' })]),
    message('t1', 'tool', [toolResultBlock('c1', 'const a = ```fenced```;', true, 'Read')]),
  ];
  const text = renderContext(messages, { tokens: 1_500, budget: 6_000, level: 'YELLOW' });

  it('has a heading with the figures and one section per message, in order', () => {
    assert.match(text, /^# Context sent to the model\n\n3 messages · 1,500 tokens of a 6,000-token budget \(25\.0%\) · YELLOW\n/);
    assert.deepEqual(text.match(/^## .*$/gm), [
      '## 1. user · 2026-01-02T03:04:05.000Z · `u1`',
      '## 2. assistant · `a1`',
      '## 3. tool · `t1`',
    ]);
  });

  it('keeps text as it is, and shows tool calls with their arguments and results with their content', () => {
    assert.ok(text.includes('\nFix `parse()` please\n'));
    assert.ok(text.includes('**Tool call** `Read` · `c1`\n`file_path`: src/a.ts\n'));
    assert.ok(
      text.includes('**Tool result** `Read` · `c1` · error\n````text\nconst a = ```fenced```;\n````'),
      'a longer fence than any in the content',
    );
  });

  it('writes string arguments as the agent wrote them: quotes unescaped, lines fenced, other values as JSON', () => {
    const call = toolCallBlock('c2', 'Edit', { old: 'say "hi"', new: 'say "hello"\nand ```wave```', count: 2, flags: { dry: true } });
    const rendered = renderContext([message('a2', 'assistant', [call])]);
    assert.ok(rendered.includes('`old`: say "hi"\n'));
    assert.ok(rendered.includes('`new`:\n````text\nsay "hello"\nand ```wave```\n````'));
    assert.ok(rendered.includes('`count`:\n```json\n2\n```'));
    const words = toolCallBlock('c4', 'shell', { command: ['rg', '"timeout"', 'src'], env: ['A=1\nB=2'] });
    const list = renderContext([message('a4', 'assistant', [words])]);
    assert.ok(list.includes('`command`:\n- rg\n- "timeout"\n- src\n'), 'a command given as words, one a line');
    assert.ok(list.includes('`env`:\n```json\n[\n  "A=1\\nB=2"\n]\n```'), 'a list with a line break inside stays JSON');
    assert.ok(rendered.includes('`flags`:\n```json\n{\n  "dry": true\n}\n```'));
    assert.ok(renderContext([message('a3', 'assistant', [toolCallBlock('c3', 'Now', {})])]).includes('```json\n{}\n```'));
  });

  it('renders any message list without figures', () => {
    assert.match(renderContext([]), /^# Context sent to the model\n\n0 messages\n$/);
  });
});
