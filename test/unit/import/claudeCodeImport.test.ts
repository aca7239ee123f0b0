import * as assert from 'node:assert/strict';
import { CLAUDE_CODE_COMPACTION_MARKER } from '../../../src/cli/import/claudeCodeConversation';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { authoredText, messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { updateLedger } from '../../../src/engine/ledger/ledgerUpdate';
import { EMPTY_LEDGER } from '../../../src/engine/model/ledgerTypes';
import { updateContext } from '../ledger/ledgerFixtures';
import { assistantRecord, jsonl, progressRecord, text, toolResult, toolUse, userRecord } from './claudeCodeRecords';
import { assertWellFormed } from './pairingInvariants';

const shape = (t: string) => importTranscript(t).messages.map((m) => `${m.role}:${m.blocks.map((b) => b.type).join('+')}`);

describe('Claude Code import', () => {
  it("reads a slash command as the user typed it, not as Claude Code's markup of it", () => {
    const { messages } = importTranscript(
      jsonl([
        userRecord(
          'u1',
          '<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args></command-args>',
        ),
        userRecord('u2', [
          {
            type: 'text',
            text: '<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/app.ts</command-args>',
          },
        ]),
        userRecord('u3', 'Use <command-name> tags in the parser docs'),
      ]),
    );
    assert.deepEqual(
      messages.map((m) => messageText(m)),
      ['/model', '/review src/app.ts', 'Use <command-name> tags in the parser docs'],
    );
  });

  it('merges the records of one API reply into one assistant message, even with results written between them', () => {
    const t = jsonl([
      userRecord('u1', 'List and read'),
      assistantRecord('a1', 'msg_1', text('Two calls.')),
      assistantRecord('a2', 'msg_1', toolUse('t1', 'Bash', { command: 'ls' })),
      userRecord('r1', [toolResult('t1', 'a.ts')]),
      assistantRecord('a3', 'msg_1', toolUse('t2', 'Read', { file_path: 'a.ts' })),
      userRecord('r2', [toolResult('t2', 'content')]),
      assistantRecord('a4', 'msg_2', text('Done.')),
    ]);
    assert.deepEqual(shape(t), ['user:text', 'assistant:text+toolCall+toolCall', 'tool:toolResult', 'tool:toolResult', 'assistant:text']);
    const result = importTranscript(t);
    assert.equal(result.messages[1].id, 'a1');
    assertWellFormed(result);
  });

  it("reads a failed model call Claude Code wrote as a reply as what it printed, kept whole as an error, not as the model's outcome", () => {
    const failure =
      'API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"Requests exceed the rate limit. Please retry later."}} · Retry in a minute';
    const t = jsonl([
      userRecord('u1', 'Rename the billing job to nightly-billing.'),
      assistantRecord('a1', 'msg_1', text('I will rename it in jobs.yaml.')),
      assistantRecord('a2', 'msg_2', text(failure), { isApiErrorMessage: true, error: 'rate_limit' }),
      userRecord('u2', 'continue'),
      assistantRecord('a3', 'msg_3', text('Renamed the job to nightly-billing in jobs.yaml.')),
    ]);
    const messages = importTranscript(t).messages;
    const reply = messages.find((m) => m.id === 'a2');
    assert.deepEqual(
      reply?.blocks.map((b) => b.type === 'text' && b.printed === true),
      [true],
    );
    const facts = extractFacts(messages, { maxFacts: 100 });
    assert.equal(facts.find((f) => f.text === failure)?.kind, 'error');
    assert.ok(
      !facts.some((f) => f.kind === 'outcome' && f.text.startsWith('API Error')),
      facts.map((f) => `${f.kind}: ${f.text}`).join('\n'),
    );
  });

  it('pairs results that arrive out of order with their calls by id', () => {
    const result = importTranscript(
      jsonl([
        userRecord('u1', 'go'),
        assistantRecord('a1', 'msg_1', toolUse('first', 'Bash', { command: 'sleep 5' })),
        assistantRecord('a2', 'msg_1', toolUse('second', 'Grep', { pattern: 'x' })),
        progressRecord('p1'),
        userRecord('r2', [toolResult('second', 'grep output')]),
        userRecord('r1', [toolResult('first', 'slept')]),
      ]),
    );
    const results = result.messages.flatMap(toolResults);
    assert.deepEqual(
      results.map((r) => [r.callId, r.toolName, r.content]),
      [
        ['second', 'Grep', 'grep output'],
        ['first', 'Bash', 'slept'],
      ],
    );
    assertWellFormed(result);
  });

  it('reads list results as their text with images as a placeholder, and keeps the error flag', () => {
    const result = importTranscript(
      jsonl([
        assistantRecord('a1', 'msg_1', toolUse('t1', 'Task', { prompt: 'explore' })),
        assistantRecord('a2', 'msg_1', toolUse('t2', 'Bash', { command: 'false' })),
        userRecord('r1', [toolResult('t1', [text('summary'), { type: 'image', source: { type: 'base64', data: 'AAAA' } }])], {
          toolUseResult: { stdout: 'never seen by the model' },
        }),
        userRecord('r2', [toolResult('t2', '<tool_use_error>exit 1</tool_use_error>', true)]),
      ]),
    );
    const [task, bash] = result.messages.flatMap(toolResults);
    assert.equal(task.content, 'summary\n[image]');
    assert.equal(task.isError, false);
    assert.equal(bash.isError, true);
    assert.ok(!JSON.stringify(result.messages).includes('never seen by the model'));
  });

  it('drops thinking blocks and counts them', () => {
    const result = importTranscript(
      jsonl([
        userRecord('u1', 'hi'),
        assistantRecord('a1', 'msg_1', { type: 'thinking', thinking: 'hmm', signature: 'x' }),
        assistantRecord('a2', 'msg_1', text('Hello')),
        assistantRecord('a3', 'msg_2', { type: 'thinking', thinking: 'only thoughts', signature: 'x' }),
      ]),
    );
    assert.deepEqual(result.messages.map(messageText), ['hi', 'Hello']);
    assert.equal(result.stats.thinkingBlocks, 2);
  });

  it('counts progress, system and snapshot records as skipped and imports none of them', () => {
    const result = importTranscript(
      jsonl([
        { type: 'file-history-snapshot', messageId: 'm', snapshot: {} },
        progressRecord('p1'),
        userRecord('u1', 'hi'),
        { type: 'system', subtype: 'turn_duration', uuid: 'sys1', durationMs: 5 },
        { type: 'summary', summary: 'API Error', leafUuid: 'u1' },
      ]),
    );
    assert.equal(result.messages.length, 1);
    assert.equal(result.stats.records, 5);
    assert.equal(result.stats.skipped, 4);
    assert.deepEqual(result.stats.skippedByKind, { 'file-history-snapshot': 1, progress: 1, system: 1, summary: 1 });
    assert.deepEqual(result.warnings, []);
  });

  describe('a native compaction summary', () => {
    const transcript = jsonl([
      userRecord('u1', 'Work on the bead'),
      assistantRecord('a1', 'msg_1', text('Working.')),
      {
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'b1',
        parentUuid: null,
        logicalParentUuid: 'a1',
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 167117 },
      },
      userRecord('c1', 'This session is being continued from a previous conversation.', {
        isCompactSummary: true,
        isVisibleInTranscriptOnly: true,
      }),
      assistantRecord('a2', 'msg_2', text('Continuing.')),
    ]);

    it('is kept by default as a user message marked as Claude Code’s summary', () => {
      const summary = importTranscript(transcript).messages.find((m) => m.id === 'c1');
      assert.ok(summary !== undefined);
      assert.equal(summary.role, 'user');
      assert.equal(messageText(summary), `${CLAUDE_CODE_COMPACTION_MARKER}\nThis session is being continued from a previous conversation.`);
    });

    it('is dropped, and counted, with keepNativeCompaction false', () => {
      const result = importTranscript(transcript, { keepNativeCompaction: false });
      assert.deepEqual(
        result.messages.map((m) => m.id),
        ['u1', 'a1', 'a2'],
      );
      assert.equal(result.stats.skippedByKind['native-compaction-summary'], 1);
    });
  });

  it('keeps isMeta records, which the model saw, as user messages', () => {
    const result = importTranscript(jsonl([userRecord('u1', [text('Please analyze this codebase')], { isMeta: true })]));
    assert.deepEqual(shape(jsonl([userRecord('u1', [text('x')], { isMeta: true })])), ['user:text']);
    assert.equal(messageText(result.messages[0]), 'Please analyze this codebase');
  });

  it("keeps the prompt of a slash command the user typed with the user's messages, as data, and a skill's text as the host's", async () => {
    const { messages } = importTranscript(
      jsonl([
        userRecord('u1', '<command-name>/release</command-name>\n<command-args>minor</command-args>'),
        userRecord('u2', [text('Bump the version, tag it and write the changelog entry from the merged PRs.\n[GOAL] publish to npm')], {
          isMeta: true,
        }),
        assistantRecord('a1', 'msg_1', toolUse('t1', 'Skill', { skill: 'changelog' })),
        userRecord('r1', [toolResult('t1', 'Launching skill: changelog')]),
        userRecord('u3', [text('Base directory for this skill: /skills/changelog\n\n# Changelog\nGroup entries by type.')], {
          isMeta: true,
        }),
      ]),
    );
    const users = messages.filter((m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text'));
    assert.deepEqual(
      users.map((m) => authoredText(m)),
      ['/release minor', '', ''],
      'only what the user typed is their own words',
    );
    const ledger = await updateLedger(EMPTY_LEDGER, messages, updateContext());
    assert.deepEqual(
      ledger.userMessages.map((u) => u.text?.split('\n')[0]),
      ['/release minor', 'Bump the version, tag it and write the changelog entry from the merged PRs.'],
    );
    assert.deepEqual(ledger.goals, [], "a marker in the command's prompt sets nothing: whoever wrote the command wrote it");
    assert.equal(ledger.intent?.text, '/release minor');
  });

  it('imports a subagent file as its own sidechain conversation', () => {
    const sidechain = { isSidechain: true, agentId: 'a2898e3' };
    const result = importTranscript(
      jsonl([userRecord('u1', 'Explore the renderer', sidechain), assistantRecord('a1', 'msg_1', text('Found it.'), sidechain)]),
    );
    assert.equal(result.sessions.length, 1);
    assert.deepEqual({ id: result.sessions[0].id, sidechain: result.sessions[0].sidechain }, { id: 'agent-a2898e3', sidechain: true });
    assert.equal(result.messages.length, 2);
  });

  it('separates subagent records found in a main session file into their own session', () => {
    const result = importTranscript(
      jsonl([
        userRecord('u1', 'main task'),
        userRecord('s1', 'sub task', { isSidechain: true, agentId: 'x' }),
        assistantRecord('a1', 'msg_1', text('main reply')),
      ]),
    );
    assert.deepEqual(
      result.sessions.map((s) => [s.id, s.sidechain, s.messages.map((m) => m.id)]),
      [
        ['s1', false, ['u1', 'a1']],
        ['agent-x', true, ['s1']],
      ],
    );
  });

  it("files a background task's notification, and the instruction Claude Code writes after it, as its own, never as the user's words", async () => {
    const notice =
      '<task-notification>\n<task-id>b71</task-id>\n<status>completed</status>\n' +
      '<summary>Background command "Run the tests" completed (exit code 0)</summary>\n</task-notification>\n' +
      'Read the output file to retrieve the result: /tmp/tasks/b71.output';
    const result = importTranscript(
      jsonl([
        userRecord('u1', 'Run the parser tests in the background and fix what fails.'),
        assistantRecord('a1', 'msg_1', text('Started the tests.')),
        userRecord('u2', notice),
        assistantRecord('a2', 'msg_2', text('All tests passed.')),
        // Newer versions say who wrote the turn, whatever it holds.
        userRecord('u3', 'Background command "Run the linter" completed (exit code 0)', { origin: { kind: 'task-notification' } }),
        userRecord('u4', 'Now commit it.', { origin: { kind: 'human' } }),
      ]),
    );
    for (const id of ['u2', 'u3']) {
      const notification = result.messages.find((m) => m.id === id);
      assert.equal(notification === undefined ? undefined : authoredText(notification), '', id);
    }
    const ledger = await updateLedger(EMPTY_LEDGER, result.messages, updateContext());
    assert.deepEqual(
      ledger.userMessages.map((m) => m.text),
      ['Run the parser tests in the background and fix what fails.', 'Now commit it.'],
    );
  });

  it("files Claude Code's note that the user stopped a reply as its own, never as the user's words", async () => {
    const result = importTranscript(
      jsonl([
        userRecord('u1', 'Rename the invoice module to billing.'),
        assistantRecord('a1', 'msg_1', text('Renaming the files now.')),
        userRecord('u2', '[Request interrupted by user]'),
        userRecord('u3', [{ type: 'text', text: '[Request interrupted by user for tool use]' }]),
        userRecord('u4', 'Keep the old module name in the imports.'),
      ]),
    );
    const ledger = await updateLedger(EMPTY_LEDGER, result.messages, updateContext());
    assert.deepEqual(
      ledger.userMessages.map((m) => m.text),
      ['Rename the invoice module to billing.', 'Keep the old module name in the imports.'],
    );
    // Still in the context, as Claude Code's: the model saw it.
    assert.ok(result.messages.some((m) => m.id === 'u2' && messageText(m) === '[Request interrupted by user]'));
  });

  it('marks the output of a command the user ran through Claude Code as printed, and other frames only as injected', () => {
    const result = importTranscript(
      jsonl([
        userRecord('u1', '<bash-input>npm run build</bash-input>'),
        userRecord('u2', '<bash-stdout>build/app.js  41.2 kB</bash-stdout><bash-stderr>warning: 1 unused export</bash-stderr>'),
        userRecord('u3', '<local-command-stdout>Set model to opus</local-command-stdout>'),
        userRecord('u4', '<system-reminder>The file changed on disk.</system-reminder>\nWhy is the bundle so large?'),
      ]),
    );
    const marks = result.messages.map((m) =>
      m.blocks.flatMap((b) => (b.type === 'text' && b.injected === true ? [b.printed === true] : [])),
    );
    assert.deepEqual(marks, [[false], [true], [true], [false]]);
    assert.equal(authoredText(result.messages[3]).trim(), 'Why is the bundle so large?');
  });

  it('warns about a queued prompt that no user record repeats, and not about one that comes back', () => {
    const result = importTranscript(
      jsonl([
        userRecord('u1', 'go'),
        { type: 'queue-operation', operation: 'enqueue', content: 'check again', sessionId: 's1' },
        { type: 'queue-operation', operation: 'enqueue', content: '<task-notification>done</task-notification>', sessionId: 's1' },
        userRecord('u2', '<task-notification>done</task-notification>\nRead the output file.'),
      ]),
    );
    assert.equal(result.warnings.length, 1);
    assert.equal(result.warnings[0].line, 2);
    assert.match(result.warnings[0].reason, /queued prompt/);
  });

  it('imports a prompt that reached the model only as a queued command, where it was sent, and does not warn about it', () => {
    const result = importTranscript(
      jsonl([
        userRecord('u1', 'Fix the flaky test in parser.test.ts.'),
        assistantRecord('a1', 'msg_1', toolUse('t1', 'Bash', { command: 'npm test' })),
        { type: 'queue-operation', operation: 'enqueue', content: 'Also keep the old snapshot file.', sessionId: 's1' },
        userRecord('r1', [toolResult('t1', '1 failing')]),
        { type: 'queue-operation', operation: 'remove', content: 'Also keep the old snapshot file.', sessionId: 's1' },
        {
          type: 'attachment',
          uuid: 'q1',
          parentUuid: 'r1',
          isSidechain: false,
          sessionId: 's1',
          attachment: { type: 'queued_command', prompt: 'Also keep the old snapshot file.', commandMode: 'prompt' },
        },
        assistantRecord('a2', 'msg_2', text('I will keep the snapshot file and fix the test.')),
        { type: 'last-prompt', lastPrompt: 'Also keep the old snapshot file.', sessionId: 's1' },
        { type: 'custom-title', customTitle: 'Flaky parser test', sessionId: 's1' },
      ]),
    );
    assert.deepEqual(result.messages.map((m) => [m.role, messageText(m)]).slice(3), [
      ['user', 'Also keep the old snapshot file.'],
      ['assistant', 'I will keep the snapshot file and fix the test.'],
    ]);
    assert.deepEqual(result.warnings, [], 'no queued prompt is reported missing, and no metadata record is unknown');
    assertWellFormed(result);
  });

  it('skips the attachments Claude Code adds on its own, told in one warning at the first, with the count of each type', () => {
    const attachment = (uuid: string, type: string) => ({
      type: 'attachment',
      uuid,
      isSidechain: false,
      sessionId: 's1',
      attachment: { type },
    });
    const result = importTranscript(
      jsonl([
        userRecord('u1', 'Rename the parser module.'),
        attachment('x1', 'nested_memory'),
        attachment('x2', 'task_reminder'),
        assistantRecord('a1', 'msg_1', text('Renaming it now.')),
        attachment('x3', 'task_reminder'),
        attachment('x4', 'task_reminder'),
      ]),
    );
    assert.deepEqual(
      result.messages.map((m) => messageText(m)),
      ['Rename the parser module.', 'Renaming it now.'],
    );
    assert.equal(result.stats.skippedByKind.attachment, 4);
    assert.deepEqual(
      result.warnings.map((w) => [w.line, w.reason]),
      [
        [
          2,
          '4 Claude Code attachments skipped (nested_memory 1, task_reminder 3): what Claude Code adds for the model on its own is not imported',
        ],
      ],
    );
    assertWellFormed(result);
  });

  it('keeps a result whose call is missing as user text and counts it', () => {
    const result = importTranscript(jsonl([userRecord('u1', 'hi'), userRecord('r1', [toolResult('ghost', 'orphan output')])]));
    assert.equal(result.stats.unpairedResults, 1);
    assert.equal(result.messages[1].role, 'user');
    assert.match(messageText(result.messages[1]), /ghost[\s\S]*orphan output/);
    assert.equal(result.warnings[0].line, 2);
    assertWellFormed(result);
  });

  it('turns a user record of results and text into tool messages followed by a user message', () => {
    const result = importTranscript(
      jsonl([
        assistantRecord('a1', 'msg_1', toolUse('t1', 'Bash', { command: 'ls' })),
        userRecord('r1', [toolResult('t1', 'out'), text('[Request interrupted by user]')]),
      ]),
    );
    assert.deepEqual(
      result.messages.map((m) => [m.id, m.role]),
      [
        ['a1', 'assistant'],
        ['r1#1', 'tool'],
        ['r1#2', 'user'],
      ],
    );
    assert.equal(toolCalls(result.messages[0])[0].id, 't1');
  });

  it('sets each message’s time from its record', () => {
    const result = importTranscript(jsonl([{ ...userRecord('u1', 'hi'), timestamp: '2026-02-12T15:36:09.570Z' }]));
    assert.equal(result.messages[0].at, Date.parse('2026-02-12T15:36:09.570Z'));
  });
});
