import * as assert from 'node:assert/strict';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { assertWellFormed } from './pairingInvariants';

describe('OpenAI-style import', () => {
  const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });

  it('parses JSON-string arguments and keeps unparsable ones as raw text', () => {
    const result = importTranscript(
      JSON.stringify({
        messages: [
          { role: 'system', content: 'You are helpful.' },
          { role: 'user', content: 'Read two files' },
          { role: 'assistant', content: null, tool_calls: [call('c1', 'read', '{"path":"a.ts"}'), call('c2', 'read', '{"path": "b.ts"')] },
          { role: 'tool', tool_call_id: 'c2', content: 'b' },
          { role: 'tool', tool_call_id: 'c1', content: 'a' },
        ],
      }),
    );
    assert.deepEqual(
      result.messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool', 'tool'],
    );
    assert.deepEqual(
      toolCalls(result.messages[2]).map((c) => c.input),
      [{ path: 'a.ts' }, { raw: '{"path": "b.ts"' }],
    );
    assert.deepEqual(
      result.messages.flatMap(toolResults).map((r) => [r.callId, r.toolName, r.content]),
      [
        ['c2', 'read', 'b'],
        ['c1', 'read', 'a'],
      ],
    );
    assertWellFormed(result);
  });

  it('reads a bare message list and content parts, with images as a placeholder', () => {
    const result = importTranscript(
      JSON.stringify([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:' } },
          ],
        },
      ]),
    );
    assert.equal(messageText(result.messages[0]), 'What is this?\n[image]');
  });
});

describe('SWE-agent import', () => {
  it('answers calls from tool messages listing tool_call_ids, and renames a reused call id', () => {
    const assistant = (id: string, command: string) => ({
      role: 'assistant',
      content: 'Next.',
      action: command,
      tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }],
    });
    const result = importTranscript(
      JSON.stringify({
        history: [
          { role: 'system', content: 'SETTING' },
          { role: 'user', content: 'ISSUE' },
          assistant('call_1', 'python reproduce.py'),
          { role: 'tool', content: '344', tool_call_ids: ['call_1'] },
          assistant('call_1', 'ls -F'),
          { role: 'tool', content: 'setup.py', tool_call_ids: ['call_1'] },
        ],
        trajectory: [],
        info: {},
      }),
    );
    assert.equal(result.format, 'swe-agent');
    assert.deepEqual(
      result.messages.flatMap(toolResults).map((r) => [r.callId, r.content]),
      [
        ['call_1', '344'],
        ['call_1~2', 'setup.py'],
      ],
    );
    assert.match(result.warnings[0].reason, /renamed call_1~2/);
    assertWellFormed(result);
  });

  it('turns a text action into a bash call and the next user message into its result', () => {
    const result = importTranscript(
      JSON.stringify({
        history: [
          { role: 'system', content: 'SETTING' },
          { role: 'user', content: 'Solve the CTF challenge' },
          {
            role: 'assistant',
            content: 'Let me look at the page.\n```\ncurl http://web:8000\n```',
            thought: 'Let me look at the page.\n',
            action: 'curl http://web:8000\n',
          },
          { role: 'user', content: '<html>Perl Examples</html>\n(Open file: n/a)\nbash-$' },
        ],
        trajectory: [],
        info: {},
      }),
    );
    assert.deepEqual(
      result.messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool'],
    );
    assert.equal(messageText(result.messages[2]), 'Let me look at the page.');
    const [bash] = toolCalls(result.messages[2]);
    assert.deepEqual([bash.name, bash.input], ['bash', { command: 'curl http://web:8000' }]);
    assert.equal(toolResults(result.messages[3])[0].callId, bash.id);
    assertWellFormed(result);
  });

  it('skips demonstration messages, counting them and saying so', () => {
    const result = importTranscript(
      JSON.stringify({
        history: [
          { role: 'system', content: 'SETTING' },
          { role: 'user', content: 'Here is a demonstration', is_demo: true },
          { role: 'assistant', content: 'demo step', is_demo: true },
          { role: 'user', content: 'Now your task' },
        ],
        info: {},
      }),
    );
    assert.deepEqual(result.messages.map(messageText), ['SETTING', 'Now your task']);
    assert.equal(result.stats.skippedByKind.demonstration, 2);
    assert.match(result.warnings[0].reason, /2 demonstration/);
  });
});
