import * as assert from 'node:assert/strict';
import { detectTranscriptFormat } from '../../../src/cli/import/detect';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { authoredText, messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { jsonl } from './claudeCodeRecords';
import { assertWellFormed } from './pairingInvariants';

const time = (second: number) => `2026-06-10T10:00:${String(second).padStart(2, '0')}.000Z`;

describe("Gemini CLI's session log (JSON Lines)", () => {
  const meta = { sessionId: 'gem-log-1', projectHash: 'abc', startTime: time(0), lastUpdated: time(0), kind: 'main' };
  const user = (id: string, second: number, content: unknown) => ({ id, timestamp: time(second), type: 'user', content });
  const call = (id: string, status: string, result?: object) => ({
    id,
    name: 'run_shell_command',
    args: { command: 'npm test' },
    ...(result === undefined ? {} : { result: [{ functionResponse: { id, name: 'run_shell_command', response: result } }] }),
    status,
    timestamp: time(3),
  });
  const reply = (id: string, second: number, content: string, toolCalls: readonly object[] = []) => ({
    id,
    timestamp: time(second),
    type: 'gemini',
    content,
    toolCalls,
    model: 'gemini-3-flash',
  });

  const log = jsonl([
    meta,
    user('u1', 1, [{ text: 'run the tests' }]),
    // The reply is written first with its call scheduled, then again whole once the call has its result.
    reply('g1', 2, 'Running them.', [call('c1', 'scheduled')]),
    { $set: { lastUpdated: time(3) } },
    reply('g1', 2, 'Running them.', [call('c1', 'error', { output: 'Exit Code: 1\n1 failing' })]),
    user('u2', 4, 'and try once more'),
    reply('g2', 5, 'Retrying.'),
    { $rewindTo: 'u2' },
    user('u3', 6, 'fix the failing test instead'),
    reply('g3', 7, 'Fixed the assertion.'),
  ]);

  it('is detected as gemini-cli, not as a Claude Code or unknown log', () => {
    assert.equal(detectTranscriptFormat(log), 'gemini-cli');
  });

  it('keeps the last copy of a message written several times, in its first place, with its call paired once', () => {
    const imported = importTranscript(log);
    assertWellFormed(imported);
    assert.equal(imported.messages.flatMap(toolCalls).length, 1);
    const [result] = imported.messages.flatMap(toolResults);
    assert.equal(result.callId, 'c1');
    assert.match(result.content, /1 failing/);
    assert.equal(result.isError, true, 'the call ended with status error');
    assert.equal(imported.stats.skippedByKind['superseded-copy'], 1);
  });

  it('takes out what a rewind took back, and keeps the requests and answers after it', () => {
    const imported = importTranscript(log);
    const users = imported.messages.filter((m) => m.role === 'user').map(authoredText);
    assert.deepEqual(users, ['run the tests', 'fix the failing test instead']);
    assert.ok(!imported.messages.some((m) => messageText(m).includes('Retrying.')));
    assert.ok(imported.messages.some((m) => m.role === 'assistant' && messageText(m).includes('Fixed the assertion.')));
    assert.equal(imported.stats.skippedByKind['rewound-message'], 2);
    assert.equal(imported.sessions[0].id, 'gem-log-1');
  });

  it('lets a $set with a messages list replace the history before it', () => {
    const imported = importTranscript(
      jsonl([meta, user('u1', 1, 'old request'), { $set: { messages: [user('u9', 2, 'the history kept')] } }]),
    );
    assert.deepEqual(imported.messages.map(authoredText), ['the history kept']);
  });
});

describe("Qwen Code's session log", () => {
  const base = (uuid: string, second: number, type: string) => ({
    uuid,
    sessionId: 'qwen-1',
    timestamp: time(second),
    type,
    cwd: '/w',
    version: '0.24.7',
  });
  const log = jsonl([
    { ...base('r1', 1, 'user'), message: { role: 'user', parts: [{ text: 'add a dark mode toggle' }] } },
    {
      ...base('r2', 2, 'assistant'),
      message: {
        role: 'model',
        parts: [
          { text: 'weighing options', thought: true },
          { text: 'Let me read the settings.' },
          { functionCall: { name: 'read_file', args: { path: 'settings.ts' } } },
        ],
      },
    },
    {
      ...base('r3', 3, 'tool_result'),
      message: {
        role: 'user',
        parts: [{ functionResponse: { name: 'read_file', response: { output: 'export const theme = "light";' } } }],
      },
      toolCallResult: { status: 'success' },
    },
    {
      ...base('r4', 4, 'assistant'),
      message: { role: 'model', parts: [{ functionCall: { id: 'k2', name: 'run_shell_command', args: { command: 'npm run lint' } } }] },
    },
    {
      ...base('r5', 5, 'tool_result'),
      message: {
        role: 'user',
        parts: [{ functionResponse: { id: 'k2', name: 'run_shell_command', response: { error: 'Exit Code: 2' } } }],
      },
      toolCallResult: { callId: 'k2', status: 'error' },
    },
    { ...base('r6', 6, 'system'), subtype: 'chat_compression' },
    { ...base('r7', 7, 'assistant'), message: { role: 'model', parts: [{ text: 'Added the toggle to Settings.' }] } },
  ]);

  it('is read as Gemini content, not as Claude Code records: the request, the text, the calls and their results', () => {
    assert.equal(detectTranscriptFormat(log), 'gemini-cli');
    const imported = importTranscript(log);
    assertWellFormed(imported);
    assert.deepEqual(imported.messages.filter((m) => m.role === 'user').map(authoredText), ['add a dark mode toggle']);
    assert.ok(imported.messages.some((m) => m.role === 'assistant' && messageText(m).includes('Added the toggle to Settings.')));
    assert.equal(imported.stats.toolResults, 2);
    assert.equal(imported.stats.unansweredCalls, 0);
    assert.equal(imported.stats.thinkingBlocks, 1);
  });

  it('pairs a response without an id with the oldest unanswered call of its name, and marks a failed call', () => {
    const results = importTranscript(log).messages.flatMap(toolResults);
    assert.equal(results[0].toolName, 'read_file');
    assert.match(results[0].content, /theme = "light"/);
    assert.equal(results[0].isError, false);
    assert.equal(results[1].callId, 'k2');
    assert.equal(results[1].isError, true);
  });

  it("counts the CLI's own system records and an unknown record type, and skips them without failing", () => {
    const imported = importTranscript(log + '\n' + JSON.stringify({ ...base('r8', 8, 'hologram') }));
    assert.equal(imported.stats.skippedByKind['system:chat_compression'], 1);
    assert.equal(imported.stats.skippedByKind.hologram, 1);
    assert.match(imported.warnings.map((w) => w.reason).join('\n'), /record type 'hologram'/);
  });
});
