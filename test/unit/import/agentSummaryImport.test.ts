import * as assert from 'node:assert/strict';
import { AGENT_SUMMARY_MARKER } from '../../../src/cli/import/agentSummary';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { authoredText, messageText } from '../../../src/engine/types';

const SUMMARY = 'Summary of the work so far: the parser was rewritten.';

/** Roo Code's api_conversation_history.json: Anthropic blocks, `ts`, and the condensed summary flagged `isSummary`. */
const roo = JSON.stringify([
  { role: 'user', content: [{ type: 'text', text: '<task>rewrite the parser</task>' }], ts: 1 },
  { role: 'assistant', content: [{ type: 'text', text: SUMMARY }], ts: 2, isSummary: true },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'src/parse.ts' } }], ts: 3 },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'export {}' }], ts: 4 },
]);
/** The same flag on a message list with OpenAI-style string content. */
const rooOpenAi = JSON.stringify([
  { role: 'user', content: 'rewrite the parser' },
  { role: 'assistant', content: SUMMARY, isSummary: true },
  { role: 'assistant', content: 'Reading the parser.' },
]);
/** The older OpenHands runtime: the condenser's action carries its summary, its observation repeats it. */
const openHandsV0 = JSON.stringify({
  instance_id: 'o1',
  history: [
    { id: 1, source: 'user', action: 'message', args: { content: 'rewrite the parser' } },
    { id: 2, source: 'agent', action: 'condensation', args: { forgotten_event_ids: [1], summary: SUMMARY, summary_offset: 1 } },
    { id: 3, source: 'environment', observation: 'condense', content: SUMMARY, extras: {} },
    { id: 4, source: 'agent', action: 'message', args: { content: 'Reading the parser.' } },
  ],
});

describe("An agent's own compaction summary", () => {
  for (const [name, text, format] of [
    ['Roo Code (Anthropic blocks)', roo, 'anthropic'],
    ['a flagged OpenAI-style message', rooOpenAi, 'openai'],
    ['the older OpenHands runtime', openHandsV0, 'openhands'],
  ] as const) {
    it(`is left out when asked, and counted, for ${name}`, () => {
      const result = importTranscript(text, { keepNativeCompaction: false });
      assert.equal(result.format, format);
      assert.ok(!result.messages.some((m) => messageText(m).includes('parser was rewritten')));
      assert.ok((result.stats.skippedByKind['native-compaction-summary'] ?? 0) >= 1);
    });

    it(`is otherwise kept marked as injected, never as the agent's or the user's words, for ${name}`, () => {
      const result = importTranscript(text, { keepNativeCompaction: true });
      const kept = result.messages.filter((m) => messageText(m).includes('parser was rewritten'));
      assert.equal(kept.length, 1);
      for (const m of kept) {
        assert.equal(m.role, 'user');
        assert.ok(messageText(m).startsWith(AGENT_SUMMARY_MARKER));
        assert.equal(authoredText(m), '');
      }
    });
  }
});
