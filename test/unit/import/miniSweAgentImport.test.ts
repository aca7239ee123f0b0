import * as assert from 'node:assert/strict';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { authoredText, messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { assertWellFormed } from './pairingInvariants';

const trajectory = (messages: readonly { role: string; content: string }[]) =>
  JSON.stringify({ trajectory_format: 'mini-swe-agent-1', instance_id: 'django__django-11138', info: {}, messages });

describe('mini-swe-agent import', () => {
  const result = importTranscript(
    trajectory([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: '<pr_description>TIME_ZONE is ignored</pr_description>' },
      { role: 'assistant', content: 'THOUGHT: Look around.\n\n```bash\nls -la\n```' },
      { role: 'user', content: '<returncode>2</returncode>\n<output>\nls: cannot access\n</output>' },
      { role: 'assistant', content: 'THOUGHT: Two things.\n\n```bash\ncat a\n```\n\n```bash\ncat b\n```' },
      { role: 'user', content: 'Please always provide EXACTLY ONE action in triple backticks, found 2 actions.' },
      { role: 'assistant', content: 'THOUGHT: Submit.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff --cached\n```' },
      { role: 'user', content: 'diff --git a/x b/x' },
    ]),
  );

  it('makes the one bash block of a turn a call, and the text around it the message text', () => {
    const turn = result.messages[2];
    assert.equal(messageText(turn), 'THOUGHT: Look around.');
    assert.deepEqual(
      toolCalls(turn).map((c) => [c.name, c.input]),
      [['bash', { command: 'ls -la' }]],
    );
  });

  it('keeps the returncode in the result text and does not mark a non-zero return as an error', () => {
    const [output] = toolResults(result.messages[3]);
    assert.equal(output.content, '<returncode>2</returncode>\n<output>\nls: cannot access\n</output>');
    assert.equal(output.isError, false);
  });

  it('keeps a turn with several blocks as text, and the format error after it as a user message', () => {
    assert.deepEqual([result.messages[4].role, toolCalls(result.messages[4]).length], ['assistant', 0]);
    assert.match(messageText(result.messages[4]), /```bash\ncat b\n```/);
    assert.equal(result.messages[5].role, 'user');
  });

  it('makes the final submission the result of the submitting command', () => {
    assert.equal(toolResults(result.messages[7])[0].content, 'diff --git a/x b/x');
    assertWellFormed(result);
    assert.equal(result.sessions[0].id, 'django__django-11138');
  });

  describe('format 1.1, with tool calls', () => {
    const task = { role: 'user', content: 'Fix the timezone bug' };
    const exit = { role: 'exit', content: '', extra: { exit_status: 'Submitted', submission: 'diff' } };
    const formatError = { role: 'user', content: 'No tool calls found in the response.', extra: { interrupt_type: 'FormatError' } };

    it('pairs Chat Completions tool calls with their tool messages, and counts the exit record as skipped', () => {
      const result = importTranscript(
        JSON.stringify({
          trajectory_format: 'mini-swe-agent-1.1',
          messages: [
            { role: 'system', content: 'You can run bash.' },
            task,
            {
              role: 'assistant',
              content: 'Looking.',
              tool_calls: [{ id: 'tc1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }],
            },
            { role: 'tool', tool_call_id: 'tc1', content: '<returncode>0</returncode>\n<output>a.py</output>', extra: { returncode: 0 } },
            { role: 'assistant', content: 'Done thinking.' },
            formatError,
            exit,
          ],
        }),
      );
      assert.deepEqual(
        result.messages.map((m) => m.role),
        ['system', 'user', 'assistant', 'tool', 'assistant', 'user'],
      );
      assert.deepEqual(toolCalls(result.messages[2])[0].input, { command: 'ls' });
      assert.equal(toolResults(result.messages[3])[0].callId, 'tc1');
      assert.equal(authoredText(result.messages[5]), '', 'the format error is mini-swe-agent’s, not the user’s');
      assert.equal(result.stats.skippedByKind.exit, 1);
      assertWellFormed(result);
    });

    it('reads Responses API replies and function_call_output items', () => {
      const result = importTranscript(
        JSON.stringify({
          trajectory_format: 'mini-swe-agent-1.1',
          messages: [
            { role: 'system', content: 'You can run bash.' },
            { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the timezone bug' }] },
            {
              object: 'response',
              output: [
                { type: 'reasoning', summary: [] },
                { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Listing.' }] },
                { type: 'function_call', call_id: 'fc1', name: 'bash', arguments: '{"command":"ls"}' },
              ],
            },
            { type: 'function_call_output', call_id: 'fc1', output: 'a.py' },
            exit,
          ],
        }),
      );
      assert.deepEqual(
        result.messages.map((m) => [m.role, messageText(m)]),
        [
          ['system', 'You can run bash.'],
          ['user', 'Fix the timezone bug'],
          ['assistant', 'Listing.'],
          ['tool', ''],
        ],
      );
      assert.equal(toolResults(result.messages[3])[0].content, 'a.py');
      assert.equal(result.stats.thinkingBlocks, 1);
      assertWellFormed(result);
    });
  });
});
