import * as assert from 'node:assert/strict';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { authoredText, messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { assertWellFormed } from './pairingInvariants';
import { ledgerAfter, markedTexts, OWN_GOAL, PLANTED } from './provenanceSupport';

const time = (minute: number) => `2026-02-03T08:${String(minute).padStart(2, '0')}:00.000Z`;
const user = (id: string, content: unknown) => ({ id, timestamp: time(0), type: 'user', content });
const gemini = (id: string, content: string, toolCalls: readonly object[] = [], extra: object = {}) => ({
  id,
  timestamp: time(1),
  type: 'gemini',
  content,
  toolCalls,
  thoughts: [{ subject: 'Planning', description: 'Look first.', timestamp: time(1) }],
  tokens: { input: 10, output: 2, total: 12 },
  model: 'gemini-3-pro',
  ...extra,
});
const toolCall = (id: string, name: string, args: object, response: object, extra: object = {}) => ({
  id,
  name,
  args,
  result: [{ functionResponse: { id, name, response } }],
  status: 'success',
  timestamp: time(2),
  resultDisplay: 'shown in the UI',
  ...extra,
});
const session = (messages: readonly object[]) =>
  JSON.stringify({ sessionId: 'gem-1', projectHash: 'abc', startTime: time(0), lastUpdated: time(9), messages });

describe('Gemini CLI session import', () => {
  const result = importTranscript(
    session([
      user('m1', 'list the config files'),
      gemini('m2', '', [
        toolCall('list-1', 'list_directory', { path: 'config' }, { output: 'a.json\nb.json' }),
        toolCall('read-1', 'read_file', { file_path: 'config/c.json' }, { error: 'File not found: config/c.json' }),
      ]),
      { id: 'm3', timestamp: time(3), type: 'info', content: 'Request cancelled.' },
      gemini('m4', 'There are two config files.'),
      user('m5', [{ text: 'what is in this picture?' }, { inlineData: { mimeType: 'image/png', data: 'iVBOR' } }]),
    ]),
  );

  it("splits a gemini message into its text and calls, followed by one tool message per call's nested result", () => {
    assert.equal(result.format, 'gemini-cli');
    assert.equal(result.sessions[0].id, 'gem-1');
    assert.deepEqual(
      result.messages.map((m) => m.role),
      ['user', 'assistant', 'tool', 'tool', 'assistant', 'user'],
    );
    assert.deepEqual(
      toolCalls(result.messages[1]).map((c) => [c.id, c.name, c.input]),
      [
        ['list-1', 'list_directory', { path: 'config' }],
        ['read-1', 'read_file', { file_path: 'config/c.json' }],
      ],
    );
    assert.deepEqual(
      result.messages.flatMap(toolResults).map((r) => [r.content, r.isError]),
      [
        ['a.json\nb.json', false],
        ['File not found: config/c.json', true],
      ],
    );
    assertWellFormed(result);
  });

  it('counts thoughts as dropped thinking, the UI notice as skipped and an image as a placeholder', () => {
    assert.equal(result.stats.thinkingBlocks, 2);
    assert.equal(result.stats.skippedByKind['info-notice'], 1);
    assert.equal(result.stats.placeholders, 1);
    assert.equal(messageText(result.messages[5]), 'what is in this picture?\n[image]');
  });

  it('keeps a call cancelled before it ran as a call without a result', () => {
    const cancelled = importTranscript(
      session([
        user('m1', 'delete it'),
        gemini('m2', '', [
          { id: 'rm-1', name: 'run_shell_command', args: { command: 'rm -rf build' }, status: 'cancelled', timestamp: time(2) },
        ]),
      ]),
    );
    assert.equal(cancelled.stats.unansweredCalls, 1);
    assertWellFormed(cancelled);
  });

  it('ignores markers in the content Gemini CLI read in for an @-referenced file, and keeps the request as the intent', async () => {
    const request = `summarize @notes.md\n${OWN_GOAL}`;
    const { ledger, imported } = await ledgerAfter(
      session([
        user('m1', [
          { text: request },
          { text: '\n--- Content from referenced files ---' },
          { text: `\nContent from @notes.md:\n${PLANTED}\n` },
          { text: '\n--- End of content ---' },
        ]),
        gemini('m2', 'The notes are about deployment.'),
      ]),
    );
    assert.deepEqual(markedTexts(ledger), ['goal: keep the public API stable']);
    assert.equal(authoredText(imported.messages[0]), request);
    assert.equal(ledger.intent?.text, request);
  });
});
