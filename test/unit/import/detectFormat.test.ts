import * as assert from 'node:assert/strict';
import { detectTranscriptFormat } from '../../../src/cli/import/detect';
import { TranscriptFormatError } from '../../../src/cli/import/importErrors';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { jsonl, userRecord } from './claudeCodeRecords';

describe('format detection', () => {
  it('recognises each format by its structure', () => {
    const cases: [string, string][] = [
      [jsonl([userRecord('u1', 'hi')]), 'claude-code'],
      [JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }), 'openai'],
      [
        JSON.stringify([
          { role: 'system', content: 's' },
          { role: 'user', content: 'hi' },
        ]),
        'openai',
      ],
      [JSON.stringify({ messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'n', input: {} }] }] }), 'anthropic'],
      [
        JSON.stringify({
          sessionId: 's',
          system_prompt: 'You are Cline',
          messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        }),
        'anthropic',
      ],
      [JSON.stringify({ history: [{ role: 'system', content: 's' }], trajectory: [], info: {} }), 'swe-agent'],
      [JSON.stringify({ trajectory_format: 'mini-swe-agent-1', messages: [{ role: 'system', content: 's' }] }), 'mini-swe-agent'],
      [JSON.stringify({ instance_id: 'i', history: [{ id: 0, action: 'system', args: { content: 's' } }] }), 'openhands'],
      [
        JSON.stringify({
          issue: { number: 1 },
          history: [
            [
              { action: 'run', command: 'ls' },
              { observation: 'run', content: '' },
            ],
          ],
        }),
        'openhands',
      ],
      [JSON.stringify({ requesterUsername: 'me', requests: [{ message: { text: 'hi' }, response: [], result: {} }] }), 'copilot-chat'],
      [JSON.stringify({ exportedAt: 'now', prompts: [{ prompt: 'hi', logs: [] }] }), 'copilot-chatreplay'],
      [
        jsonl([
          { timestamp: 't', type: 'session_meta', payload: { id: 's' } },
          { timestamp: 't', type: 'response_item', payload: { type: 'message', role: 'user', content: [] } },
        ]),
        'codex',
      ],
      [
        jsonl([
          { id: 's', instructions: '' },
          { type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c' },
        ]),
        'codex',
      ],
      [JSON.stringify({ sessionId: 's', projectHash: 'h', messages: [{ id: 'm', type: 'user', content: 'hi' }] }), 'gemini-cli'],
    ];
    for (const [text, format] of cases) assert.equal(detectTranscriptFormat(text), format, text.slice(0, 80));
  });

  it('does not look at the name: a one-line Claude Code file parses as one document and is still found', () => {
    assert.equal(importTranscript(JSON.stringify(userRecord('u1', 'hi'))).format, 'claude-code');
  });

  it('throws a TranscriptFormatError for JSON with no known structure', () => {
    assert.throws(() => detectTranscriptFormat(JSON.stringify({ foo: [1, 2] })), TranscriptFormatError);
  });

  it("says that Cline's ui_messages.json is its chat view and which file of the task to replay instead", () => {
    const uiMessages = JSON.stringify([
      { ts: 1_700_000_000_000, type: 'say', say: 'text', text: 'Add a --verbose flag' },
      { ts: 1_700_000_001_000, type: 'ask', ask: 'tool', text: '{"tool":"readFile","path":"src/cli.ts"}' },
    ]);
    for (const read of [() => detectTranscriptFormat(uiMessages), () => importTranscript(uiMessages)]) {
      assert.throws(
        read,
        (error: unknown) =>
          error instanceof TranscriptFormatError && /ui_messages\.json.*api_conversation_history\.json/.test(error.message),
      );
    }
  });
});
