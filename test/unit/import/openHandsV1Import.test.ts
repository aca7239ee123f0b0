import * as assert from 'node:assert/strict';
import { detectTranscriptFormat } from '../../../src/cli/import/detect';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { assertWellFormed } from './pairingInvariants';

/** Events in the shapes the software-agent-sdk serializes them (`kind` discriminator, pydantic fields). */
const text = (value: string) => [{ type: 'text', text: value, cache_prompt: false }];
const system = {
  kind: 'SystemPromptEvent',
  id: 'e0',
  source: 'agent',
  system_prompt: { type: 'text', text: 'You are OpenHands agent.' },
  tools: [{}],
};
const user = (id: string, value: string) => ({
  kind: 'MessageEvent',
  id,
  timestamp: '2026-01-02T10:00:00',
  source: 'user',
  llm_message: { role: 'user', content: text(value) },
  activated_skills: [],
  extended_content: [],
});
const action = (id: string, callId: string, responseId: string, command: string, thought = '') => ({
  kind: 'ActionEvent',
  id,
  source: 'agent',
  thought: thought === '' ? [] : text(thought),
  reasoning_content: 'private reasoning',
  action: { kind: 'TerminalAction', command },
  tool_name: 'terminal',
  tool_call_id: callId,
  tool_call: { id: callId, name: 'terminal', arguments: JSON.stringify({ command }), origin: 'completion' },
  llm_response_id: responseId,
});
const observation = (id: string, callId: string, output: string, isError = false) => ({
  kind: 'ObservationEvent',
  id,
  source: 'environment',
  tool_name: 'terminal',
  tool_call_id: callId,
  action_id: 'a',
  observation: { kind: 'TerminalObservation', content: text(output), is_error: isError, command: 'x', exit_code: isError ? 1 : 0 },
});
const line = (history: readonly object[], instruction = 'Fix the parser crash on empty input') =>
  JSON.stringify({ instance_id: 'repo__issue-1', instruction, history, test_result: {}, metadata: {} });

describe('OpenHands V1 (software-agent-sdk) event log import', () => {
  it('is detected from events typed by kind, in JSON Lines and as one JSON object', () => {
    const history = [system, user('e1', 'hi'), action('e2', 'c1', 'r1', 'ls'), observation('e3', 'c1', 'src')];
    assert.equal(detectTranscriptFormat(`${line(history)}\n${line(history)}\n`), 'openhands');
    assert.equal(detectTranscriptFormat(JSON.stringify({ history: [system, user('e1', 'hi')] })), 'openhands');
  });

  it('reads a bare event log, one event a line or as one list, as one session', () => {
    const events = [system, user('e1', 'List the sources'), action('e2', 'c1', 'r1', 'ls'), observation('e3', 'c1', 'src')];
    for (const text of [events.map((e) => JSON.stringify(e)).join('\n'), JSON.stringify(events)]) {
      const result = importTranscript(text);
      assert.equal(result.format, 'openhands');
      assert.equal(result.sessions.length, 1);
      assert.deepEqual(
        result.messages.map((m) => m.role),
        ['system', 'user', 'assistant', 'tool'],
      );
    }
  });

  it('reads messages, calls with their thought, and results paired by tool_call_id', () => {
    const result = importTranscript(
      line([
        system,
        user('e1', 'Fix the parser crash on empty input'),
        action('e2', 'c1', 'r1', 'pytest -x', 'I will run the failing test first.'),
        action('e3', 'c2', 'r1', 'git status'),
        observation('e4', 'c2', 'clean'),
        observation('e5', 'c1', 'FAILED test_parse_empty - IndexError', true),
        { kind: 'MessageEvent', id: 'e6', source: 'agent', llm_message: { role: 'assistant', content: text('The guard is in place.') } },
      ]),
    );
    assertWellFormed(result);
    assert.deepEqual(
      result.messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool', 'tool', 'assistant'],
    );
    assert.equal(messageText(result.messages[1]), 'Fix the parser crash on empty input');
    const reply = result.messages[2];
    assert.equal(messageText(reply), 'I will run the failing test first.');
    assert.deepEqual(
      toolCalls(reply).map((c) => [c.id, c.name, c.input]),
      [
        ['c1', 'terminal', { command: 'pytest -x' }],
        ['c2', 'terminal', { command: 'git status' }],
      ],
    );
    const results = result.messages.flatMap(toolResults);
    assert.deepEqual(
      results.map((r) => [r.callId, r.content, r.isError]),
      [
        ['c2', 'clean', false],
        ['c1', 'FAILED test_parse_empty - IndexError', true],
      ],
    );
    assert.equal(result.stats.thinkingBlocks, 2);
  });

  it("imports the line's instruction as the user's request when no user message carries it", () => {
    const result = importTranscript(line([system, action('e2', 'c1', 'r1', 'ls'), observation('e3', 'c1', 'src')]));
    assert.deepEqual(
      result.messages.map((m) => [m.role, m.role === 'user' ? messageText(m) : '']),
      [
        ['system', ''],
        ['user', 'Fix the parser crash on empty input'],
        ['assistant', ''],
        ['tool', ''],
      ],
    );
  });

  it('answers rejected and failed calls, leaves condensation summaries out, and names unknown kinds without failing', () => {
    const result = importTranscript(
      line([
        user('e1', 'task'),
        action('e2', 'c1', 'r1', 'rm -rf build'),
        {
          kind: 'UserRejectObservation',
          id: 'e3',
          tool_name: 'terminal',
          tool_call_id: 'c1',
          action_id: 'e2',
          rejection_reason: 'too risky',
        },
        action('e4', 'c2', 'r2', 'make'),
        { kind: 'AgentErrorEvent', id: 'e5', source: 'agent', tool_name: 'terminal', tool_call_id: 'c2', error: 'tool timed out' },
        { kind: 'Condensation', id: 'e6', forgotten_event_ids: ['e2'], summary: 'Earlier the agent listed files.', llm_response_id: 'r3' },
        { kind: 'CondensationSummaryEvent', id: 'e7', summary: 'Earlier the agent listed files.' },
        { kind: 'PauseEvent', id: 'e8', source: 'user' },
        { kind: 'ConversationStateUpdateEvent', id: 'e9', key: 'execution_status', value: 'finished' },
        { kind: 'HologramEvent', id: 'e10', payload: 'x' },
      ]),
      { keepNativeCompaction: false },
    );
    assertWellFormed(result);
    assert.deepEqual(
      result.messages.flatMap(toolResults).map((r) => [r.callId, r.content, r.isError]),
      [
        ['c1', 'Action rejected: too risky', true],
        ['c2', 'tool timed out', true],
      ],
    );
    assert.ok(!result.messages.some((m) => messageText(m).includes('Earlier the agent listed files')));
    assert.equal(result.stats.skippedByKind['native-compaction-summary'], 2);
    assert.equal(result.stats.skippedByKind['unknown-HologramEvent'], 1);
    assert.ok(result.warnings.some((w) => w.reason.includes('HologramEvent')));
    assert.ok(!result.warnings.some((w) => w.reason.includes('PauseEvent')));
  });
});
