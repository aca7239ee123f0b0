import * as assert from 'node:assert/strict';
import { CODEX_COMPACTION_MARKER } from '../../../src/cli/import/codexRollout';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { authoredText, messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { jsonl } from './claudeCodeRecords';
import { assertWellFormed } from './pairingInvariants';
import { ledgerAfter, markedTexts, OWN_GOAL, PLANTED } from './provenanceSupport';

const at = (second: number) => `2026-04-02T09:00:${String(second).padStart(2, '0')}.000Z`;
const record = (second: number, type: string, payload: object) => ({ timestamp: at(second), type, payload });
const item = (second: number, payload: object) => record(second, 'response_item', payload);
const input = (value: string) => ({ type: 'input_text', text: value });
const userItem = (second: number, ...texts: string[]) => item(second, { type: 'message', role: 'user', content: texts.map(input) });
const typedEvent = (second: number, message: string) => record(second, 'event_msg', { type: 'user_message', message, images: [] });
const call = (second: number, id: string, name: string, args: object) =>
  item(second, { type: 'function_call', name, arguments: JSON.stringify(args), call_id: id });
const output = (second: number, id: string, text: string) => item(second, { type: 'function_call_output', call_id: id, output: text });
const AGENTS = '# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nUse pnpm.\n</INSTRUCTIONS>';
const ENVIRONMENT = '<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>';

describe('Codex rollout import', () => {
  const rollout = jsonl([
    record(0, 'session_meta', { id: 'rollout-1', cwd: '/repo', base_instructions: { text: 'You are Codex.' } }),
    item(1, { type: 'message', role: 'developer', content: [input('<permissions instructions>sandboxed</permissions instructions>')] }),
    userItem(2, AGENTS, ENVIRONMENT),
    record(3, 'turn_context', { cwd: '/repo' }),
    userItem(4, 'raise the default timeout to 90s'),
    typedEvent(4, 'raise the default timeout to 90s'),
    item(5, { type: 'reasoning', summary: [], encrypted_content: 'gAAA' }),
    item(6, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking for the setting.' }] }),
    // A parallel batch: three calls, outputs afterwards in another order.
    call(7, 'call_a', 'exec_command', { cmd: 'rg timeout' }),
    call(7, 'call_b', 'exec_command', { cmd: 'npm test' }),
    item(7, { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'default timeout' } }),
    output(8, 'call_b', 'Chunk ID: 1\nProcess running with session ID 7\nOutput:\n'),
    output(8, 'call_a', 'src/config.ts:3:timeout = 30'),
    record(8, 'event_msg', { type: 'exec_command_end', call_id: 'call_a', aggregated_output: 'src/config.ts:3:timeout = 30' }),
    // The running command's output arrives through a later write_stdin call.
    call(9, 'call_c', 'write_stdin', { session_id: 7, chars: '' }),
    output(10, 'call_c', 'Process exited with code 0\nOutput:\n12 passing'),
    item(11, {
      type: 'custom_tool_call',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** Update File: src/config.ts',
      call_id: 'call_d',
    }),
    item(12, { type: 'custom_tool_call_output', call_id: 'call_d', output: 'Success.' }),
    item(13, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Raised to 90s.' }] }),
  ]);
  const result = importTranscript(rollout);

  it('reads the base instructions as the system prompt and merges the items of one response into one assistant message', () => {
    assert.equal(result.format, 'codex');
    assert.equal(result.sessions[0].id, 'rollout-1');
    assert.deepEqual(
      result.messages.map((m) => m.role),
      ['system', 'system', 'user', 'user', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant'],
    );
    assert.equal(messageText(result.messages[0]), 'You are Codex.');
    assert.equal(messageText(result.messages[4]), 'Looking for the setting.');
    assert.deepEqual(
      toolCalls(result.messages[4]).map((c) => c.name),
      ['exec_command', 'exec_command', 'web_search'],
    );
  });

  it('pairs outputs by call_id, keeps the running command and its later output with their own calls, and leaves the search unanswered', () => {
    assert.deepEqual(
      result.messages.flatMap(toolResults).map((r) => [r.callId, r.toolName, r.content.split('\n').pop()]),
      [
        ['call_b', 'exec_command', 'Process running with session ID 7'],
        ['call_a', 'exec_command', 'src/config.ts:3:timeout = 30'],
        ['call_c', 'write_stdin', '12 passing'],
        ['call_d', 'apply_patch', 'Success.'],
      ],
    );
    assert.deepEqual(toolCalls(result.messages[9])[0].input, { input: '*** Begin Patch\n*** Update File: src/config.ts' });
    assert.equal(result.stats.unansweredCalls, 1);
    assert.equal(result.stats.thinkingBlocks, 1);
    assert.deepEqual(result.stats.skippedByKind, { turn_context: 1, event_msg: 2 });
    assertWellFormed(result);
  });

  it("takes only what the user typed as the user's words: AGENTS.md and the environment context are injected", () => {
    assert.equal(authoredText(result.messages[2]), '');
    assert.equal(authoredText(result.messages[3]), 'raise the default timeout to 90s');
  });

  it('ignores markers planted in AGENTS.md and the environment context, with and without user_message events', async () => {
    const planted = [userItem(2, `${AGENTS}\n${PLANTED}`, `<environment_context>\n${PLANTED}\n</environment_context>`)];
    const withEvents = jsonl([record(0, 'session_meta', { id: 'r' }), ...planted, userItem(3, OWN_GOAL), typedEvent(3, OWN_GOAL)]);
    // Older rollouts: no wrapper and no events; the tags and the AGENTS.md heading decide.
    const older = jsonl([
      { id: 'r', timestamp: at(0), instructions: null },
      {
        type: 'message',
        role: 'user',
        content: [input(`${AGENTS}\n${PLANTED}`), input(`<environment_context>\n${PLANTED}\n</environment_context>\n${OWN_GOAL}`)],
      },
      { record_type: 'state' },
      { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' },
      { type: 'function_call_output', call_id: 'c1', output: '{"output":"a.ts","metadata":{"exit_code":0}}' },
    ]);
    for (const text of [withEvents, older]) {
      const { ledger, imported } = await ledgerAfter(text);
      assert.equal(imported.format, 'codex');
      assert.deepEqual(markedTexts(ledger), ['goal: keep the public API stable']);
    }
  });

  it("reads an older rollout's output envelope: the lines the command printed, and a non-zero exit as a failed call", () => {
    const text = jsonl([
      record(0, 'session_meta', { id: 'r' }),
      userItem(1, 'run the tests'),
      call(2, 'c1', 'shell', { command: ['pytest', '-q'] }),
      output(
        3,
        'c1',
        JSON.stringify({ output: 'collected 3 items\nE   ImportError: cannot import name parse_row\n', metadata: { exit_code: 2 } }),
      ),
      call(4, 'c2', 'shell', { command: ['ls'] }),
      output(5, 'c2', JSON.stringify({ output: 'a.py\nb.py\n', metadata: { exit_code: 0 } })),
    ]);
    const [failed, listed] = importTranscript(text).messages.flatMap(toolResults);
    assert.equal(failed.content, 'collected 3 items\nE   ImportError: cannot import name parse_row\n');
    assert.equal(failed.isError, true);
    assert.equal(listed.content, 'a.py\nb.py\n');
    assert.equal(listed.isError, false);
  });

  it("reads a shell output under Codex's header as the lines the command printed, with how it ended, and no bookkeeping", async () => {
    const header = (code: number, tokens: number) =>
      `Chunk ID: 3f2a9c\nWall time: 0.6197 seconds\nProcess exited with code ${code}\nOriginal token count: ${tokens}\nOutput:\n`;
    const text = jsonl([
      record(0, 'session_meta', { id: 'r' }),
      userItem(1, 'build it'),
      call(2, 'c1', 'exec_command', { cmd: 'cargo build' }),
      output(3, 'c1', `${header(101, 12)}error[E0425]: cannot find value \`cfg\` in this scope\n`),
      call(4, 'c2', 'exec_command', { cmd: 'cat build.log' }),
      output(5, 'c2', `${header(0, 1012186)}Warning: truncated output\nlast line of the log`),
    ]);
    const [failed, long] = importTranscript(text).messages.flatMap(toolResults);
    assert.equal(failed.content, 'Process exited with code 101\nerror[E0425]: cannot find value `cfg` in this scope\n');
    assert.equal(failed.isError, true);
    // A count larger than what is shown says the harness cut the output: it stays.
    assert.equal(
      long.content,
      'Process exited with code 0\nOriginal token count: 1012186\nWarning: truncated output\nlast line of the log',
    );
    assert.equal(long.isError, false);
    const commands = (await ledgerAfter(text)).ledger.tools.commands;
    assert.deepEqual(
      commands.map((c) => [c.command, c.exitCode, c.output]),
      [
        ['cargo build', 101, undefined],
        ['cat build.log', 0, 'Original token count: 1012186 … last line of the log'],
      ],
    );
  });

  it("reads a script tool's output given as a list of text parts, its header the first, as the status and what it printed", () => {
    const text = jsonl([
      record(0, 'session_meta', { id: 'r' }),
      userItem(1, 'summarize the runbook'),
      item(2, { type: 'custom_tool_call', call_id: 's1', name: 'exec', input: 'const doc = await read("docs/runbook.md");' }),
      item(3, {
        type: 'custom_tool_call_output',
        call_id: 's1',
        output: [input('Script completed\nWall time 2.4 seconds\nOutput:\n'), input('# Runbook\nRestart the billing worker first.')],
      }),
    ]);
    const [script] = importTranscript(text).messages.flatMap(toolResults);
    assert.equal(script.content, 'Script completed\n\n# Runbook\nRestart the billing worker first.');
    assert.equal(script.isError, false);
  });

  it("reads Codex's answer to a call it could not carry out as a failed call, and a custom tool's own words as they are", () => {
    const text = jsonl([
      record(0, 'session_meta', { id: 'r' }),
      userItem(1, 'tail the worker log'),
      call(2, 'c1', 'exec_command', { cmd: 'tail -f worker.log', yield_time_ms: 500 }),
      output(3, 'c1', 'failed to parse function arguments: unknown field `follow` at line 1 column 42'),
      call(4, 'c2', 'write_stdin', { session_id: 9, chars: 'q' }),
      output(5, 'c2', 'write_stdin failed: Unknown process id 9'),
      call(6, 'c3', 'lookup_ticket', { id: 'OPS-12' }),
      output(7, 'c3', 'ticket failed: the billing export stalls at 2 a.m.'),
    ]);
    assert.deepEqual(
      importTranscript(text)
        .messages.flatMap(toolResults)
        .map((r) => r.isError),
      [true, true, false],
    );
  });

  it("keeps Codex's own compaction summary as an injected message, or drops and counts it", () => {
    const compacted = jsonl([
      record(0, 'session_meta', { id: 'r' }),
      userItem(1, 'continue'),
      typedEvent(1, 'continue'),
      record(2, 'compacted', { message: `Summary so far.\n${PLANTED}` }),
    ]);
    const kept = importTranscript(compacted);
    const summary = kept.messages[kept.messages.length - 1];
    assert.ok(messageText(summary).startsWith(CODEX_COMPACTION_MARKER));
    assert.equal(authoredText(summary), '');
    assert.equal(importTranscript(compacted, { keepNativeCompaction: false }).stats.skippedByKind['native-compaction-summary'], 1);
  });

  it('warns about a record type and a response item type nobody knows', () => {
    const odd = importTranscript(
      jsonl([record(0, 'session_meta', { id: 'r' }), record(1, 'hologram', {}), item(2, { type: 'telepathy_call', call_id: 'x' })]),
    );
    assert.equal(odd.warnings.length, 2);
    assert.match(odd.warnings[0].reason, /record type 'hologram'/);
    assert.match(odd.warnings[1].reason, /response item type 'telepathy_call'/);
  });
});

describe('Codex rollout requests logged only as user_message events', () => {
  const reply = (second: number, text: string) =>
    item(second, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  const typedTexts = (text: string) =>
    importTranscript(text)
      .messages.filter((m) => m.role === 'user')
      .map(authoredText)
      .filter((t) => t !== '');

  it('imports the event as the user message when no user item carries the request', () => {
    const result = importTranscript(
      jsonl([
        record(0, 'session_meta', { id: 'r', base_instructions: { text: 'You are Codex.' } }),
        userItem(1, AGENTS, ENVIRONMENT),
        typedEvent(2, 'rename the "legacy" flag to strict'),
        reply(3, 'Renaming it.'),
        typedEvent(4, 'now update the docs'),
        call(5, 'c1', 'exec_command', { cmd: 'ls docs' }),
        output(6, 'c1', 'guide.md'),
      ]),
    );
    const users = result.messages.filter((m) => m.role === 'user');
    assert.deepEqual(users.map(authoredText), ['', 'rename the "legacy" flag to strict', 'now update the docs']);
    // Codex's own context keeps its injected marking.
    assert.ok(messageText(users[0]).includes('<environment_context>'));
    assert.deepEqual(
      result.messages.map((m) => m.role),
      ['system', 'user', 'user', 'assistant', 'user', 'assistant', 'tool'],
    );
  });

  it('keeps one user message when both the item and the event log the request, in either order', () => {
    const itemFirst = jsonl([userItem(1, 'fix the build'), typedEvent(1, 'fix the build'), reply(2, 'On it.')]);
    const eventFirst = jsonl([typedEvent(1, 'fix the build'), userItem(1, 'fix the build'), reply(2, 'On it.')]);
    assert.deepEqual(typedTexts(itemFirst), ['fix the build']);
    assert.deepEqual(typedTexts(eventFirst), ['fix the build']);
  });

  it('never merges two different requests of one turn: an event beyond the user items is imported too', () => {
    const text = jsonl([userItem(1, 'run the tests'), typedEvent(1, 'run the tests'), typedEvent(2, 'and the linter'), reply(3, 'Both.')]);
    assert.deepEqual(typedTexts(text), ['run the tests', 'and the linter']);
  });

  it("takes the request at the end of an IDE's item as the user's words and the editor context before it as injected", () => {
    const wrapped =
      '# Context from my IDE setup:\n\n## Active file: src/cache.ts\n\n## My request for Codex:\nmake the cache size configurable';
    const result = importTranscript(
      jsonl([userItem(1, wrapped), typedEvent(1, 'make the cache size configurable'), reply(2, 'Adding a setting.')]),
    );
    const users = result.messages.filter((m) => m.role === 'user');
    assert.equal(users.length, 1);
    assert.equal(authoredText(users[0]).trim(), 'make the cache size configurable');
    assert.ok(users[0].blocks.some((b) => b.type === 'text' && b.injected === true && b.text.includes('Active file: src/cache.ts')));
  });

  it('keeps an event Codex marked as its own context injected', () => {
    const result = importTranscript(
      jsonl([record(1, 'event_msg', { type: 'user_message', message: ENVIRONMENT, kind: 'environment_context' }), reply(2, 'ok')]),
    );
    const users = result.messages.filter((m) => m.role === 'user');
    assert.equal(users.length, 1);
    assert.equal(authoredText(users[0]), '');
    assert.ok(messageText(users[0]).includes('<cwd>/repo</cwd>'));
  });
});

describe('Codex reasoning summaries', () => {
  it("keep the summary's headings and lines as the agent's text of that response, never the encrypted reasoning", () => {
    const result = importTranscript(
      jsonl([
        userItem(1, 'speed up the cache'),
        item(2, {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: '**Checking the cache layer**\n\nThe eviction runs on every read.' }],
          content: null,
          encrypted_content: 'gAAAAsecret',
        }),
        item(3, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Moving eviction to writes.' }] }),
        item(4, { type: 'reasoning', summary: [], encrypted_content: 'gAAAAother' }),
      ]),
    );
    const replies = result.messages.filter((m) => m.role === 'assistant');
    assert.equal(replies.length, 1);
    assert.equal(messageText(replies[0]), '**Checking the cache layer**\n\nThe eviction runs on every read.\nMoving eviction to writes.');
    assert.ok(!result.messages.some((m) => messageText(m).includes('gAAAA')));
    assert.equal(result.stats.thinkingBlocks, 2);
  });
});

describe('Codex tool searches', () => {
  const found = [
    {
      type: 'namespace',
      name: 'mcp__tracker',
      description: 'Issue tracker app.',
      tools: [{ type: 'function', name: '_fetch_ticket', description: 'Fetch one ticket.', defer_loading: true }],
    },
  ];
  const result = importTranscript(
    jsonl([
      record(0, 'session_meta', { id: 'search-1' }),
      userItem(1, 'is ticket 42 closed?'),
      item(2, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking for the tracker tools.' }] }),
      item(3, {
        type: 'tool_search_call',
        call_id: 'call_s',
        status: 'completed',
        execution: 'client',
        arguments: { query: 'tracker ticket status', limit: 8 },
      }),
      item(4, { type: 'tool_search_output', call_id: 'call_s', status: 'completed', execution: 'client', tools: found }),
      call(5, 'call_t', 'mcp__tracker___fetch_ticket', { id: 42 }),
      output(6, 'call_t', '{"id":42,"state":"closed"}'),
    ]),
  );

  it('keep the query as a call and the tools found as its result, with nothing skipped or warned about', () => {
    const searches = result.messages.flatMap(toolCalls).filter((c) => c.name === 'tool_search');
    assert.deepEqual(
      searches.map((c) => [c.id, c.input]),
      [['call_s', { query: 'tracker ticket status', limit: 8 }]],
    );
    const answer = result.messages.flatMap(toolResults).find((r) => r.callId === 'call_s');
    assert.equal(answer?.toolName, 'tool_search');
    assert.deepEqual(JSON.parse(answer?.content ?? 'null'), found);
    assert.deepEqual(
      result.messages.map((m) => m.role),
      ['user', 'assistant', 'tool', 'assistant', 'tool'],
    );
    assert.equal(result.warnings.length, 0);
    assert.equal(result.stats.unansweredCalls, 0);
    assert.deepEqual(result.stats.skippedByKind, {});
    assertWellFormed(result);
  });
});
