import * as assert from 'node:assert/strict';
import { detectTranscriptFormat } from '../../../src/cli/import/detect';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { authoredText, messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { assertWellFormed } from './pairingInvariants';

describe('a saved Gemini history (a list of Content objects)', () => {
  const contents = [
    { role: 'user', parts: [{ text: 'Fix the failing date parser test in src/dates.ts' }] },
    {
      role: 'model',
      parts: [
        { text: "I'll run the tests first." },
        { functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'npm test' } } },
      ],
    },
    {
      role: 'user',
      parts: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'FAIL src/dates.test.ts\nExit Code: 1' } } }],
    },
    { role: 'model', parts: [{ text: 'The parser ignores the timezone offset; I will apply it in parseDate.' }] },
  ];

  for (const [shape, document] of [
    ['as `/chat save` writes it (a bare list)', contents],
    ["in a restore checkpoint's `history`", { history: contents, toolCall: { name: 'replace' } }],
    ["in a restore checkpoint's `clientHistory`", { clientHistory: contents }],
    ['as the API takes it (`contents`)', { contents }],
  ] as const) {
    it(`imports the requests, calls, results and replies ${shape}`, () => {
      const text = JSON.stringify(document);
      assert.equal(detectTranscriptFormat(text), 'gemini-cli');
      const imported = importTranscript(text);
      assertWellFormed(imported);
      const { messages } = imported;
      assert.deepEqual(
        messages.map((m) => m.role),
        ['user', 'assistant', 'tool', 'assistant'],
      );
      assert.equal(authoredText(messages[0]), 'Fix the failing date parser test in src/dates.ts');
      assert.deepEqual(
        toolCalls(messages[1]).map((c) => [c.id, c.name, c.input.command]),
        [['c1', 'run_shell_command', 'npm test']],
      );
      assert.deepEqual(
        toolResults(messages[2]).map((r) => [r.callId, r.content]),
        [['c1', 'FAIL src/dates.test.ts\nExit Code: 1']],
      );
      assert.match(messageText(messages[3]), /timezone offset/);
    });
  }

  it("leaves a SWE-agent trajectory's history, whose entries have no parts, to the SWE-agent reader", () => {
    const text = JSON.stringify({
      history: [
        { role: 'system', content: 'You are an agent.' },
        { role: 'user', content: 'Fix the bug.' },
      ],
      trajectory: [],
    });
    assert.equal(detectTranscriptFormat(text), 'swe-agent');
  });
});
