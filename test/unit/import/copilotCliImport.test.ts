import * as assert from 'node:assert/strict';
import { detectTranscriptFormat } from '../../../src/cli/import/detect';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { authoredText, messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { jsonl } from './claudeCodeRecords';
import { assertWellFormed } from './pairingInvariants';

const event = (n: number, type: string, data: object) => ({
  type,
  data,
  id: `e${n}`,
  timestamp: `2026-06-25T01:50:${String(n).padStart(2, '0')}.000Z`,
  parentId: n > 1 ? `e${n - 1}` : null,
});
const reply = (n: number, content: string, calls: readonly object[] = [], extra: object = {}) =>
  event(n, 'assistant.message', { messageId: `m${n}`, content, toolRequests: calls, ...extra });
const call = (toolCallId: string, command: string) => ({ toolCallId, name: 'bash', arguments: { command }, type: 'function' });
const done = (n: number, toolCallId: string, outcome: object, extra: object = {}) =>
  event(n, 'tool.execution_complete', { toolCallId, ...outcome, ...extra });

const log = jsonl([
  event(1, 'session.start', { sessionId: 'cli-1', producer: 'copilot-agent', context: { cwd: '/repo' } }),
  event(2, 'hook.start', { hookType: 'userPromptSubmitted' }),
  event(3, 'system.message', { role: 'system', content: 'You are the GitHub Copilot CLI.' }),
  event(4, 'user.message', {
    content: 'why is the hook denied?',
    transformedContent:
      '<current_datetime>2026-06-25</current_datetime>\n\nwhy is the hook denied?\n\n<system_reminder>tables</system_reminder>',
  }),
  event(5, 'user.message', { content: '<skill-context name="debugging">steps</skill-context>', source: 'skill-debugging' }),
  reply(6, '', [call('t1', 'cat hooks.json'), call('t2', 'entire --version')], { reasoningText: 'Read the config first.' }),
  event(7, 'tool.execution_start', { toolCallId: 't1', toolName: 'bash' }),
  done(8, 't1', { success: true, result: { content: '{"hooks": {}}', detailedContent: 'shown to the user' } }),
  done(9, 't2', { success: false, error: { message: 'entire: command not found', code: 'failure' } }),
  event(10, 'system.notification', { content: '<system_notification>Shell command 30 has completed.</system_notification>' }),
  reply(11, 'Delegating the fix.', [call('task1', 'fix')]),
  reply(12, '', [call('s1', 'go test ./...')], { parentToolCallId: 'task1' }),
  done(13, 's1', { success: true, result: { content: 'ok' } }, { parentToolCallId: 'task1' }),
  done(14, 'task1', { success: true, result: { content: 'fixed the hook' } }),
  event(15, 'system.message', { role: 'system', content: 'You are the GitHub Copilot CLI.' }),
  event(16, 'future.event', { detail: 'x' }),
  reply(17, 'The hook needed the `entire` binary on the PATH.'),
]);

describe("GitHub Copilot CLI's session log", () => {
  it('is detected as copilot-cli from its events', () => {
    assert.equal(detectTranscriptFormat(log), 'copilot-cli');
  });

  it('pairs each call with its result, and marks a call that did not succeed as failed', () => {
    const imported = importTranscript(log);
    assertWellFormed(imported);
    assert.equal(imported.sessions[0].id, 'cli-1');
    const results = imported.messages.flatMap(toolResults);
    assert.deepEqual(
      results.map((r) => [r.callId, r.isError]),
      [
        ['t1', false],
        ['t2', true],
        ['task1', false],
      ],
    );
    assert.equal(results[0].content, '{"hooks": {}}', 'the result the model was sent, not the one shown to the user');
    assert.equal(results[1].content, 'entire: command not found');
    assert.equal(imported.stats.thinkingBlocks, 1);
  });

  it('keeps only what the user typed as theirs, and what the CLI or a skill added as injected', () => {
    const users = importTranscript(log).messages.filter((m) => m.role === 'user');
    assert.equal(authoredText(users[0]), 'why is the hook denied?');
    assert.match(messageText(users[0]), /current_datetime/);
    assert.equal(authoredText(users[1]), '', 'a message with a source was not written by the user');
    assert.match(messageText(users[1]), /skill-context/);
    assert.equal(authoredText(users[2]), '');
    assert.match(messageText(users[2]), /Shell command 30 has completed/);
  });

  it("puts a subagent's events in a sidechain session of their own, after the main one", () => {
    const imported = importTranscript(log);
    assert.equal(imported.sessions.length, 2);
    assert.equal(imported.sessions[1].sidechain, true);
    assert.deepEqual(
      imported.sessions[1].messages.flatMap(toolCalls).map((c) => c.id),
      ['s1'],
    );
    assert.ok(!imported.messages.flatMap(toolCalls).some((c) => c.id === 's1'));
  });

  it('adds the instructions once while they do not change, skips bookkeeping silently and warns about an unknown event', () => {
    const imported = importTranscript(log);
    assert.equal(imported.messages.filter((m) => m.role === 'system').length, 1);
    assert.equal(imported.stats.skippedByKind['repeated-system-prompt'], 1);
    assert.equal(imported.stats.skippedByKind['hook.start'], 1);
    assert.deepEqual(
      imported.warnings.map((w) => w.reason),
      ["event type 'future.event' is not known to be model context; skipped"],
    );
  });
});
