import * as assert from 'node:assert/strict';
import { detectTranscriptFormat } from '../../../src/cli/import/detect';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { AGENT_SUMMARY_MARKER } from '../../../src/cli/import/agentSummary';
import { authoredText, messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { jsonl } from './claudeCodeRecords';
import { assertWellFormed } from './pairingInvariants';

const time = (second: number) => `2026-01-10T10:00:${String(second).padStart(2, '0')}.000Z`;
const header = { type: 'session', version: 3, id: 'pi-1', timestamp: time(0), cwd: '/work/app' };
const entry = (id: string, parentId: string | null, second: number, message: object) => ({
  type: 'message',
  id,
  parentId,
  timestamp: time(second),
  message,
});
const userSays = (words: string) => ({ role: 'user', content: [{ type: 'text', text: words }] });
const assistantSays = (content: readonly object[]) => ({ role: 'assistant', content, stopReason: 'toolUse' });
const result = (toolCallId: string, output: string, isError = false) => ({
  role: 'toolResult',
  toolCallId,
  toolName: 'bash',
  content: [{ type: 'text', text: output }],
  isError,
});

const branched = jsonl([
  header,
  entry('a', null, 1, userSays('make the tests pass')),
  entry(
    'b',
    'a',
    2,
    assistantSays([
      { type: 'thinking', thinking: 'hmm' },
      { type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'npm test' } },
    ]),
  ),
  entry('c', 'b', 3, result('c1', '2 failing', true)),
  // The user went back to `c` and tried something else: `d` is on a branch left behind.
  entry('d', 'c', 4, userSays('rewrite the parser')),
  { type: 'branch_summary', id: 'e', parentId: 'c', timestamp: time(5), fromId: 'd', summary: 'Tried rewriting the parser; abandoned.' },
  entry('f', 'e', 6, userSays('fix the two failing tests instead')),
  { type: 'model_change', id: 'g', parentId: 'f', timestamp: time(7), provider: 'anthropic', modelId: 'claude' },
  entry('h', 'g', 8, { role: 'bashExecution', command: 'npm test', output: '1 failing', exitCode: 1, cancelled: false, truncated: false }),
  entry('i', 'h', 9, { role: 'bashExecution', command: 'ls', output: 'a\nb', exitCode: 0, cancelled: false, excludeFromContext: true }),
  {
    type: 'compaction',
    id: 'j',
    parentId: 'i',
    timestamp: time(10),
    summary: 'Fixed one test; one is left.',
    firstKeptEntryId: 'f',
    tokensBefore: 9000,
  },
  entry('k', 'j', 11, assistantSays([{ type: 'text', text: 'Both tests pass now.' }])),
]);

describe('Pi coding agent sessions', () => {
  it('is detected as pi, not as a Claude Code or Codex log', () => {
    assert.equal(detectTranscriptFormat(branched), 'pi');
  });

  it('follows the branch that ends with the last entry and leaves the branches behind out', () => {
    const imported = importTranscript(branched);
    assertWellFormed(imported);
    assert.equal(imported.sessions[0].id, 'pi-1');
    const users = imported.messages
      .filter((m) => m.role === 'user')
      .map(authoredText)
      .filter((t) => t !== '');
    assert.deepEqual(users, ['make the tests pass', 'fix the two failing tests instead']);
    assert.ok(!imported.messages.some((m) => messageText(m).includes('rewrite the parser')));
    assert.equal(imported.stats.skippedByKind['other-branch'], 1);
    assert.ok(imported.messages.some((m) => authoredText(m) === '' && messageText(m).includes('Tried rewriting the parser')));
  });

  it('pairs a call with its result and keeps a failed result as an error', () => {
    const imported = importTranscript(branched);
    assert.deepEqual(
      imported.messages.flatMap(toolCalls).map((c) => c.name),
      ['bash'],
    );
    const [failed] = imported.messages.flatMap(toolResults);
    assert.equal(failed.callId, 'c1');
    assert.equal(failed.isError, true);
    assert.equal(imported.stats.thinkingBlocks, 1);
  });

  it('tells the model about a command the user ran as Pi does, unless the user kept it out of the context', () => {
    const imported = importTranscript(branched);
    const ran = imported.messages.find((m) => messageText(m).startsWith('Ran `npm test`'));
    assert.ok(ran !== undefined && authoredText(ran) === '');
    assert.match(messageText(ran), /1 failing[\s\S]*Command exited with code 1/);
    // Printed by Pi of a command it ran, like Claude Code's `!`: read as a command's output.
    assert.ok(ran.blocks.every((b) => b.type === 'text' && b.printed === true));
    assert.ok(!imported.messages.some((m) => messageText(m).startsWith('Ran `ls`')));
    assert.equal(imported.stats.skippedByKind['excluded-command'], 1);
  });

  it("keeps Pi's compaction summary marked, or leaves it out when asked", () => {
    assert.ok(importTranscript(branched).messages.some((m) => messageText(m) === `${AGENT_SUMMARY_MARKER}\nFixed one test; one is left.`));
    const dropped = importTranscript(branched, { keepNativeCompaction: false });
    assert.ok(!dropped.messages.some((m) => messageText(m).includes('Fixed one test')));
  });

  it('reads a session written before entries had ids as one line of entries', () => {
    const imported = importTranscript(
      jsonl([
        { type: 'session', id: 'pi-old', timestamp: time(0), cwd: '/w' },
        { type: 'message', timestamp: time(1), message: userSays('first') },
        { type: 'message', timestamp: time(2), message: assistantSays([{ type: 'text', text: 'done' }]) },
        { type: 'message', timestamp: time(3), message: { role: 'user', content: 'second, as a string' } },
      ]),
    );
    assert.deepEqual(imported.messages.map(messageText), ['first', 'done', 'second, as a string']);
  });
});
