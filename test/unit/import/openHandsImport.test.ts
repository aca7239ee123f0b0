import * as assert from 'node:assert/strict';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { assertWellFormed } from './pairingInvariants';

const run = (id: number, command: string, extra: Record<string, unknown> = {}) => ({
  id,
  source: 'agent',
  action: 'run',
  message: `Running command: ${command}`,
  args: { command, thought: `I will run ${command}`, hidden: false },
  llm_metrics: { accumulated_cost: 1 },
  ...extra,
});
const output = (id: number, content: string, extra: Record<string, unknown> = {}) => ({
  id,
  source: 'agent',
  observation: 'run',
  content,
  extras: { metadata: { exit_code: 0 } },
  ...extra,
});
const session = (instanceId: string, history: readonly object[]) =>
  JSON.stringify({ instance_id: instanceId, instruction: 'duplicate of the task', history, test_result: { git_patch: '' } });

describe('OpenHands import', () => {
  it('pairs observations with actions by cause, even when they arrive out of order', () => {
    const result = importTranscript(
      session('t1', [
        { id: 0, source: 'agent', action: 'system', args: { content: 'You are OpenHands agent.', tools: [] } },
        { id: 1, source: 'user', action: 'message', args: { content: 'Fix the segfault' } },
        run(2, 'ls'),
        run(3, 'pwd'),
        output(5, '/workspace', { cause: 3 }),
        output(4, 'src', { cause: 2 }),
      ]),
    );
    assert.deepEqual(
      result.messages.flatMap(toolResults).map((r) => [r.callId, r.content]),
      [
        ['t1/event-3:call', '/workspace'],
        ['t1/event-2:call', 'src'],
      ],
    );
    assert.equal(messageText(result.messages[2]), 'I will run ls');
    assert.deepEqual(toolCalls(result.messages[2])[0].input, { command: 'ls', hidden: false });
    assert.ok(!JSON.stringify(result.messages).includes('accumulated_cost'));
    assertWellFormed(result);
  });

  it("reads the trajectory OpenHands' web app downloads for a conversation, but not a SWE-agent trajectory's steps", () => {
    const events = [
      { id: 0, source: 'environment', observation: 'agent_state_changed', content: '', extras: { agent_state: 'loading' } },
      { id: 1, source: 'user', action: 'message', args: { content: 'Why does the worker restart every hour?' } },
      run(2, 'grep -rn restart worker/'),
      output(3, 'worker/supervisor.py:40: restart_every = 3600', { cause: 2 }),
      { id: 4, source: 'agent', action: 'message', args: { content: 'The supervisor restarts it: `restart_every = 3600`.' } },
    ];
    const text = JSON.stringify({ trajectory: events });
    const result = importTranscript(text);
    assert.equal(result.format, 'openhands');
    assert.deepEqual(
      result.messages.map((m) => m.role),
      ['user', 'assistant', 'tool', 'assistant'],
    );
    assert.equal(messageText(result.messages[0]), 'Why does the worker restart every hour?');
    assert.equal(toolResults(result.messages[2])[0].content, 'worker/supervisor.py:40: restart_every = 3600');
    assertWellFormed(result);
    // A SWE-agent trajectory's steps have an action and an observation too, but no author: that is not this format.
    const sweAgent = JSON.stringify({ trajectory: [{ action: 'ls', observation: 'src', response: 'ls', thought: 'Look.' }] });
    assert.throws(() => importTranscript(sweAgent), /no known transcript structure/);
  });

  it('takes the call exactly as the model sent it from the raw model response, grouping calls of one response', () => {
    const metadata = (callId: string) => ({
      function_name: 'execute_bash',
      tool_call_id: callId,
      model_response: {
        id: 'gen-1',
        choices: [
          {
            message: {
              content: 'Two commands.',
              tool_calls: [
                { id: 'toolu_01', function: { name: 'execute_bash', arguments: '{"command": "ls"}' } },
                { id: 'toolu_02', function: { name: 'execute_bash', arguments: '{"command": "pwd"}' } },
              ],
            },
          },
        ],
      },
    });
    const result = importTranscript(
      session('t1', [
        run(1, 'ls', { tool_call_metadata: metadata('toolu_01') }),
        output(2, 'src', { cause: 1, tool_call_metadata: metadata('toolu_01') }),
        run(3, 'pwd', { tool_call_metadata: metadata('toolu_02') }),
        output(4, '/workspace', { cause: 3, tool_call_metadata: metadata('toolu_02') }),
      ]),
    );
    assert.deepEqual(
      result.messages.map((m) => m.role),
      ['assistant', 'tool', 'tool'],
    );
    assert.equal(messageText(result.messages[0]), 'Two commands.');
    assert.deepEqual(
      toolCalls(result.messages[0]).map((c) => [c.id, c.input]),
      [
        ['toolu_01', { command: 'ls' }],
        ['toolu_02', { command: 'pwd' }],
      ],
    );
    assertWellFormed(result);
  });

  it('pairs by position in the older format that has neither cause nor tool call ids', () => {
    const result = importTranscript(session('old', [run(1, 'ls'), output(2, 'src'), run(3, 'pwd'), output(4, '/workspace')]));
    assert.deepEqual(
      result.messages.flatMap(toolResults).map((r) => [r.callId, r.content]),
      [
        ['old/event-1:call', 'src'],
        ['old/event-3:call', '/workspace'],
      ],
    );
  });

  it('keeps an error observation that answers no action as a user message', () => {
    const result = importTranscript(
      session('t1', [
        run(1, 'ls'),
        output(2, 'src', { cause: 1 }),
        { id: 3, source: 'agent', observation: 'error', content: "Parameter 'command' is expected to be one of […]", extras: {} },
      ]),
    );
    assert.equal(result.messages[2].role, 'user');
    assert.match(messageText(result.messages[2]), /Parameter 'command'/);
  });

  it('imports each line as a session; messages are the first session', () => {
    const text = [
      session('first', [{ id: 1, source: 'user', action: 'message', args: { content: 'one' } }]),
      session('second', [{ id: 1, source: 'user', action: 'message', args: { content: 'two' } }]),
    ].join('\n');
    const result = importTranscript(text);
    assert.deepEqual(
      result.sessions.map((s) => [s.id, s.messages.map(messageText)]),
      [
        ['first', ['one']],
        ['second', ['two']],
      ],
    );
    assert.equal(result.messages, result.sessions[0].messages);
  });

  it('reads zone-less timestamps as UTC', () => {
    const result = importTranscript(
      session('t1', [{ id: 1, source: 'user', action: 'message', args: { content: 'hi' }, timestamp: '2025-04-30T16:32:54.708196' }]),
    );
    assert.equal(result.messages[0].at, Date.UTC(2025, 3, 30, 16, 32, 54, 708));
  });

  describe('the older resolver output, whose events have no id, source, cause or args', () => {
    const instruction = 'Please fix the following issue.\n# Problem Statement\nThe CLI crashes on empty input.';
    const events = [
      { content: instruction, images_urls: null, wait_for_response: false, action: 'message', security_risk: null },
      { command: 'ls src', thought: 'Let me look at the sources first.', keep_prompt: true, action: 'run', security_risk: null },
      { content: 'cli.py\r\nroot@box:/workspace # ', command_id: -1, command: 'ls src', exit_code: 0, observation: 'run' },
      {
        code: "open_file('src/cli.py')",
        thought: 'Open the entry point.',
        action: 'run_ipython',
        kernel_init_code: 'from agentskills import *',
      },
      {
        content: '1|import sys\n[Jupyter current working directory: /workspace]',
        code: "open_file('src/cli.py')",
        observation: 'run_ipython',
      },
      { content: 'I have guarded the empty input.', images_urls: null, wait_for_response: false, action: 'message' },
      { outputs: {}, thought: 'The crash is fixed.', action: 'finish' },
    ];
    const resolverLine = (history: readonly unknown[]) =>
      JSON.stringify({
        issue: { owner: 'acme', repo: 'tool', number: 7, title: 'Crash', body: 'The CLI crashes on empty input.' },
        instruction,
        base_commit: '',
        git_patch: 'diff --git a/src/cli.py b/src/cli.py',
        history,
        metrics: { accumulated_cost: 0.07 },
        success: true,
        error: null,
      });

    it('imports the task as the user message, each action as a call with its thought, and pairs observations by position', () => {
      const result = importTranscript(resolverLine(events));
      assert.equal(result.format, 'openhands');
      assert.equal(result.sessions[0].id, 'acme/tool#7');
      assert.deepEqual(
        result.messages.map((m) => m.role),
        ['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'assistant'],
      );
      assert.equal(messageText(result.messages[0]), instruction);
      assert.equal(messageText(result.messages[1]), 'Let me look at the sources first.');
      assert.deepEqual(toolCalls(result.messages[1])[0].input, { command: 'ls src', keep_prompt: true });
      assert.equal(toolCalls(result.messages[3])[0].name, 'run_ipython');
      assert.equal(toolCalls(result.messages[3])[0].input.code, "open_file('src/cli.py')");
      assert.deepEqual(
        result.messages.flatMap(toolResults).map((r) => r.content.split('\n')[0]),
        ['cli.py\r', '1|import sys'],
      );
      assert.equal(messageText(result.messages[5]), 'I have guarded the empty input.');
      assert.equal(toolCalls(result.messages[6])[0].name, 'finish');
      assert.equal(result.stats.skipped, 0);
      assertWellFormed(result);
    });

    it('reads the same events stored as [action, observation] pairs', () => {
      const pairs = [
        [events[0], { content: '', observation: 'null' }],
        [events[1], events[2]],
        [events[3], events[4]],
      ];
      const result = importTranscript(resolverLine(pairs));
      assert.deepEqual(
        result.messages.map((m) => m.role),
        ['user', 'assistant', 'tool', 'assistant', 'tool'],
      );
      assert.equal(result.stats.skippedByKind['null-observation'], 1);
      assertWellFormed(result);
    });
  });
});
