import * as assert from 'node:assert/strict';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { messageText, toolCalls, toolResults } from '../../../src/engine/types';
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
});
