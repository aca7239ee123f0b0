import * as assert from 'node:assert/strict';
import type { FileAction } from '../../../src/engine/model/ledgerTypes';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { toolCalls, toolResults, type Message } from '../../../src/engine/types';
import { importedMessages, importedSessions } from './transcriptFiles';

const CLAUDE_CODE = 'cc__spotter__258c7280-ae70-4798-800f-63464d01a85d.jsonl';
const MINI_SWE_AGENT = 'miniswe__gemini3pro__django__django-11138.traj.json';
const OPENHANDS = 'openhands__multi_swe_bench_ponyc_output.jsonl';
const CLINE = 'cline__sdk_session.messages.json';

const imported = (file: string): Message[] => importedMessages(file);
const callCount = (messages: readonly Message[], name: string) => messages.flatMap(toolCalls).filter((c) => c.name === name).length;
/** Calls of this tool that got a result. */
const answeredCalls = (messages: readonly Message[], name: string) => {
  const answered = new Set(messages.flatMap(toolResults).map((r) => r.callId));
  return messages.flatMap(toolCalls).filter((c) => c.name === name && answered.has(c.id)).length;
};

describe('tool record over real transcripts', () => {
  it('finds the files and commands of a Claude Code session, and its git push failing with exit code 128', () => {
    const messages = imported(CLAUDE_CODE);
    const record = recordToolActivity(messages);
    const withAction = (action: FileAction) => record.files.filter((f) => f.actions.includes(action));
    assert.ok(withAction('read').length >= 20, `read ${withAction('read').length}`);
    assert.ok(withAction('edited').length >= 5, `edited ${withAction('edited').length}`);
    assert.ok(withAction('created').length >= 5, `created ${withAction('created').length}`);
    assert.ok(record.files.every((f) => f.path.length > 0 && new Set(f.actions).size === f.actions.length));
    assert.equal(new Set(record.files.map((f) => f.path)).size, record.files.length);
    // Every shell command, and beside them the searches that worked, named by what they looked for.
    const bashIds = new Set(
      messages
        .flatMap(toolCalls)
        .filter((c) => c.name === 'Bash')
        .map((c) => c.id),
    );
    const searches = record.commands.filter((c) => !bashIds.has(c.callId));
    assert.equal(record.commands.length - searches.length, callCount(messages, 'Bash'));
    assert.ok(searches.length > 0);
    assert.ok(
      searches.every((c) => /^(?:Grep|Glob|WebSearch|WebFetch) \S/.test(c.command) && c.ok),
      searches.map((c) => c.command).join('\n'),
    );
    const push = record.commands.find((c) => c.exitCode === 128);
    assert.ok(push, 'the failing git push');
    assert.match(push.command, /^git push/);
    assert.equal(push.ok, false);
    const pushError = record.errors.find((e) => e.callId === push.callId);
    assert.ok(pushError);
    assert.match(pushError.summary, /^fatal: The current branch \S+ has no upstream branch\.$/);
  });

  it('reads the return code of every mini-swe-agent command and fixes errors when a command later succeeds', () => {
    const messages = imported(MINI_SWE_AGENT);
    const record = recordToolActivity(messages);
    assert.equal(record.commands.length, answeredCalls(messages, 'bash'));
    // All but the final submission, whose output is the patch itself.
    assert.deepEqual(
      record.commands.filter((c) => c.exitCode === undefined).map((c) => c.callId),
      [record.commands[record.commands.length - 1].callId],
    );
    const nonZero = record.commands.filter((c) => c.exitCode !== undefined && c.exitCode !== 0);
    const failed = nonZero.filter((c) => !c.ok);
    assert.ok(failed.length > 0);
    // A search that exits with 1 found nothing: the only command with another status than 0 that did not fail.
    assert.ok(
      nonZero.filter((c) => c.ok).every((c) => c.exitCode === 1 && /\bgrep\b/.test(c.command)),
      nonZero.map((c) => `${c.command} → ${c.exitCode}`).join('\n'),
    );
    assert.equal(record.errors.length, failed.length);
    assert.ok(record.errors.some((e) => e.fixed && e.subject === 'python3 reproduce_issue.py'));
  });

  it('names each mini-swe-agent error by what went wrong: a traceback by its exception, never by a frame', () => {
    const record = recordToolActivity(imported(MINI_SWE_AGENT));
    const tracebacks = record.errors.filter((e) => /^\w+(?:Error|Exception)\b/.test(e.summary));
    assert.ok(tracebacks.length >= record.errors.length / 2, record.errors.map((e) => e.summary).join('\n'));
    assert.ok(
      record.errors.every((e) => !/^File "/.test(e.summary)),
      'no error is named by a traceback frame',
    );
  });

  it('says what the successful commands of a Claude Code session printed', () => {
    const record = recordToolActivity(imported(CLAUDE_CODE));
    const succeeded = record.commands.filter((c) => c.ok);
    const withOutput = succeeded.filter((c) => c.output !== undefined);
    assert.ok(withOutput.length >= succeeded.length / 2, `${withOutput.length} of ${succeeded.length}`);
    assert.ok(record.commands.filter((c) => !c.ok).every((c) => c.output === undefined));
    assert.ok(
      withOutput.some((c) => /^mix test/.test(c.command) && /\d+ tests, \d+ failures/.test(c.output ?? '')),
      'a test run with its verdict',
    );
  });

  it('finds the files viewed and edited through str_replace_editor in each OpenHands session', () => {
    const sessions = importedSessions(OPENHANDS);
    assert.equal(sessions.length, 3);
    for (const messages of sessions) {
      const record = recordToolActivity(messages);
      assert.ok(record.files.some((f) => f.actions.includes('read') && f.path.startsWith('/workspace/ponylang__ponyc__0.1/')));
      assert.ok(record.files.some((f) => f.actions.includes('edited')));
      assert.equal(record.commands.length, answeredCalls(messages, 'execute_bash'));
    }
  });

  it('finds the files and commands of a Cline session', () => {
    const record = recordToolActivity(imported(CLINE));
    const sidebar = record.files.find((f) => f.path.endsWith('agent-sidebar.tsx'));
    assert.deepEqual(sidebar?.actions, ['edited', 'read']);
    assert.ok(record.files.some((f) => f.path.endsWith('ui/button.tsx')));
    assert.equal(record.commands.length, 1);
    assert.match(record.commands[0].command, /^grep -rn/);
  });
});
