import * as assert from 'node:assert/strict';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { toolResults, type Message } from '../../../src/engine/types';
import { text } from './claudeCodeRecords';
import { assertWellFormed } from './pairingInvariants';

/** A Cline, Roo Code or Kilo Code history whose assistant calls its tools natively and gets the results back as user text. */
function history(): string {
  const use = (id: string, name: string, input: object) => ({ type: 'tool_use', id, name, input });
  return JSON.stringify([
    {
      role: 'user',
      ts: 1,
      content: [text('<task>\nMove the uploads to the new bucket\n</task>'), text('<environment_details>\nnow\n</environment_details>')],
    },
    {
      role: 'assistant',
      ts: 2,
      content: [
        text('I will look at the storage helper first.'),
        use('t1', 'use_subagents', { prompt_1: 'map the storage calls' }),
        use('t2', 'read_file', { path: 'src/lib/storage.ts' }),
      ],
    },
    {
      role: 'user',
      ts: 3,
      content: [
        text('[subagents] Result:\nSubagent results: 1 succeeded'),
        text("[read_file for 'src/lib/storage.ts'] Result:\n1 | export const bucket = 'old';"),
        text('# TODO LIST UPDATE REQUIRED\n- [ ] move uploads'),
        text('<environment_details>\nnow\n</environment_details>'),
      ],
    },
    { role: 'assistant', ts: 4, content: [use('t3', 'execute_command', { command: 'npm install gcs' })] },
    {
      role: 'user',
      ts: 5,
      content: [text("[execute_command for 'npm install gcs'] Result:\nCommand failed with exit code 1.\nOutput:\nnpm error 404")],
    },
    {
      role: 'assistant',
      ts: 6,
      content: [use('t4', 'ask_followup_question', { question: 'Which bucket?\nThe old one is gone.' })],
    },
    {
      role: 'user',
      ts: 7,
      content: [text("[ask_followup_question for 'Which bucket?\nThe old one is gone.'] Result:\n<answer>\nUse media-prod\n</answer>")],
    },
    { role: 'assistant', ts: 8, content: [use('t5', 'read_file', { path: 'missing.ts' })] },
    {
      role: 'user',
      ts: 9,
      content: [
        text("[read_file for 'missing.ts'] Result:"),
        text('The tool execution failed with the following error:\n<error>\nENOENT\n</error>'),
      ],
    },
  ]);
}

function resultOf(messages: readonly Message[], callId: string) {
  return messages.flatMap(toolResults).find((r) => r.callId === callId);
}

describe('Cline-style histories with native tool calls', () => {
  it("pairs each '[tool] Result:' text with the next unanswered call of the turn before, in order", () => {
    const imported = importTranscript(history());
    assertWellFormed(imported);
    assert.equal(imported.stats.toolCalls, 5);
    assert.equal(imported.stats.toolResults, 5);
    assert.equal(imported.stats.unansweredCalls, 0);
    assert.match(resultOf(imported.messages, 't1')?.content ?? '', /Subagent results: 1 succeeded/);
    assert.match(resultOf(imported.messages, 't2')?.content ?? '', /export const bucket = 'old'/);
    assert.equal(resultOf(imported.messages, 't2')?.toolName, 'read_file');
  });

  it("keeps Cline's reminders and environment after the results as injected user text", () => {
    const imported = importTranscript(history());
    const reminder = imported.messages.find((m) => m.blocks.some((b) => b.type === 'text' && b.text.startsWith('# TODO LIST')));
    assert.equal(reminder?.role, 'user');
    assert.ok(reminder?.blocks.every((b) => b.type === 'text' && b.injected === true));
  });

  it('marks a result with a non-zero exit code or an <error> frame as a failed call, and others as not', () => {
    const imported = importTranscript(history());
    assert.equal(resultOf(imported.messages, 't3')?.isError, true);
    assert.equal(resultOf(imported.messages, 't5')?.isError, true);
    assert.match(resultOf(imported.messages, 't5')?.content ?? '', /ENOENT/);
    assert.equal(resultOf(imported.messages, 't2')?.isError, false);
  });

  it("keeps the user's answer to a question (even one over several lines) as the user's words beside the call's result", () => {
    const imported = importTranscript(history());
    assert.match(resultOf(imported.messages, 't4')?.content ?? '', /^\[ask_followup_question for 'Which bucket\?/);
    const answer = imported.messages.find(
      (m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text' && b.text.includes('media-prod')),
    );
    const words = answer?.blocks.find((b) => b.type === 'text' && b.text.includes('media-prod'));
    assert.equal(words?.type === 'text' && words.injected !== true, true);
  });
});
