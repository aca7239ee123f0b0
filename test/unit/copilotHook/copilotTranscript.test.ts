import * as assert from 'node:assert/strict';
import { readCopilotTranscript, RESULT_NOT_KEPT } from '../../../src/copilotHook/copilotTranscript';
import type { Message } from '../../../src/engine/types';
import { entry, transcript, turn } from './copilotTranscripts';

const messages = (text: string): Message[] => readCopilotTranscript(text).messages.map((m) => m.message);

describe("Copilot Chat's session transcript as ctx messages", () => {
  it("reads the user's request, the agent's text and its tool calls, each call answered", () => {
    const text = transcript(
      'sess-1',
      ...turn('Find where the retry limit is set.', [
        { text: 'Searching for the limit.', tool: 'grep_search', args: { query: 'MAX_RETRIES' }, callId: 'c1' },
        { text: 'MAX_RETRIES is 7, in src/net/retry.ts.' },
      ]),
    );
    const read = messages(text);
    assert.deepEqual(
      read.map((m) => m.role),
      ['user', 'assistant', 'tool', 'assistant'],
    );
    assert.equal(read[0].blocks[0].type === 'text' && read[0].blocks[0].text, 'Find where the retry limit is set.');
    const call = read[1].blocks.find((b) => b.type === 'toolCall');
    assert.deepEqual(call, { type: 'toolCall', id: 'c1', name: 'grep_search', input: { query: 'MAX_RETRIES' } });
    const result = read[2].blocks[0];
    assert.ok(result.type === 'toolResult');
    assert.equal(result.callId, 'c1');
    assert.equal(result.toolName, 'grep_search', 'the result names its tool from the call');
    assert.equal(result.content, RESULT_NOT_KEPT, 'Copilot keeps no result: a note says so');
    assert.equal(read[3].blocks[0].type === 'text' && read[3].blocks[0].text, 'MAX_RETRIES is 7, in src/net/retry.ts.');
    assert.equal(read[0].at, Date.parse('2026-11-20T10:00:00.000Z'));
  });

  it('keeps a result when the transcript holds one, and marks a failed call as an error', () => {
    const text = transcript(
      'sess-2',
      entry('assistant.message', { content: '', toolRequests: [{ toolCallId: 'k', name: 'read_file', arguments: '{"path":"a.ts"}' }] }),
      entry('tool.execution_complete', { toolCallId: 'k', success: true, result: { content: 'export const port = 8443;' } }),
      entry('assistant.message', { content: '', toolRequests: [{ toolCallId: 'f', name: 'run_in_terminal', arguments: 'not json' }] }),
      entry('tool.execution_complete', { toolCallId: 'f', success: false }),
    );
    const read = messages(text);
    const [kept, failed] = read.filter((m) => m.role === 'tool').map((m) => m.blocks[0]);
    assert.ok(kept.type === 'toolResult' && failed.type === 'toolResult');
    assert.equal(kept.content, 'export const port = 8443;');
    assert.equal(failed.isError, true);
    const call = read[2].blocks[0];
    assert.ok(call.type === 'toolCall');
    assert.deepEqual(call.input, { arguments: 'not json' }, 'arguments that are no JSON are kept as written');
  });

  it('leaves a line still being written for the next read, and counts unreadable lines without stopping', () => {
    const whole = transcript(
      'sess-3',
      entry('user.message', { content: 'first' }),
      '{not json',
      entry('user.message', { content: 'second' }),
    );
    const partial = `${whole}${entry('user.message', { content: 'third' }).slice(0, 30)}`;
    const read = readCopilotTranscript(partial);
    assert.deepEqual(
      read.messages.map((m) => (m.message.blocks[0].type === 'text' ? m.message.blocks[0].text : '')),
      ['first', 'second'],
    );
    assert.equal(read.lines, 4, 'the session start, two requests and the unreadable line');
    assert.equal(read.unreadable, 1);
    assert.deepEqual(
      read.messages.map((m) => m.line),
      [1, 3],
    );
  });
});
