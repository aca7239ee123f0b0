import * as assert from 'node:assert/strict';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { authoredText, messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { assertWellFormed } from './pairingInvariants';
import { ledgerAfter, markedTexts, OWN_GOAL, PLANTED } from './provenanceSupport';

const text = (value: string) => ({ type: 1, text: value });
const SYSTEM = { role: 0, content: [text('You are a careful coding assistant.')] };
const ENVIRONMENT = { role: 1, content: [text('<environment_info>\nThe OS is Linux.\n</environment_info>')] };
const turn = (words: string, attachments = 'a.ts') => ({
  role: 1,
  content: [
    text(`<attachments>\n${attachments}\n</attachments>\n<userRequest>\n${words}\n</userRequest>`),
    { type: 3, cacheType: 'ephemeral' },
  ],
});

const request = (id: string, messages: readonly object[], reply: string) => ({
  id,
  kind: 'request',
  type: 'ChatMLSuccess',
  name: 'panel/editAgent',
  metadata: { model: 'gpt-5.1', startTime: '2026-03-01T10:00:00.000Z', tools: [{ function: { name: 'grep_search' } }] },
  requestMessages: { messages },
  response: { type: 'success', message: [reply] },
});
const toolCall = (id: string, tool: string, args: object, output: string) => ({
  id,
  kind: 'toolCall',
  tool,
  args: JSON.stringify(args),
  time: '2026-03-01T10:00:05.000Z',
  response: [output],
});
const sizeReport = { id: 'e1', kind: 'element', name: 'History', tokens: 120, maxTokens: 128000 };
const replay = (prompts: readonly object[]) =>
  JSON.stringify({ exportedAt: '2026-03-01T11:00:00.000Z', totalPrompts: prompts.length, prompts });

describe('Copilot chat replay import', () => {
  const words = 'Remove the tests of the old parser';
  const first = [SYSTEM, ENVIRONMENT, turn(words)];
  const result = importTranscript(
    replay([
      {
        prompt: words,
        hasSeen: false,
        logs: [sizeReport, request('q1', first, ''), toolCall('call_1', 'grep_search', { query: 'oldParser' }, '2 matches')],
      },
      // The same prompt again: the next chunk of the same turn's iterations.
      { prompt: words, hasSeen: false, logs: [request('q2', [...first, { role: 2, content: [] }], 'Deleting the file.')] },
      {
        prompt: words,
        hasSeen: false,
        logs: [
          toolCall('call_2', 'apply_patch', { input: '*** Delete File: old.test.ts' }, 'edited'),
          request('q3', first, 'Removed old.test.ts.'),
        ],
      },
    ]),
  );

  it('makes one user turn of a repeated prompt, an assistant message per request and a call of it per tool call log', () => {
    assert.equal(result.format, 'copilot-chatreplay');
    assert.deepEqual(
      result.messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant'],
    );
    assert.deepEqual(
      toolCalls(result.messages[2]).map((c) => [c.name, c.input]),
      [['grep_search', { query: 'oldParser' }]],
    );
    // A tool call logged after the next prompt entry still belongs to the reply before it.
    assert.equal(messageText(result.messages[4]), 'Deleting the file.');
    assert.equal(toolCalls(result.messages[4])[0].id, 'call_2');
    assert.deepEqual(
      result.messages.flatMap(toolResults).map((r) => [r.toolName, r.content]),
      [
        ['grep_search', '2 matches'],
        ['apply_patch', 'edited'],
      ],
    );
    assert.equal(result.stats.skippedByKind['prompt-size-report'], 1);
    assertWellFormed(result);
  });

  it('reads the system prompt once and the user turn as the model saw it, only the request words authored', () => {
    assert.equal(messageText(result.messages[0]), 'You are a careful coding assistant.');
    const user = result.messages[1];
    assert.equal(authoredText(user), words);
    assert.match(messageText(user), /<environment_info>[\s\S]*<attachments>/);
  });

  it('ignores markers planted in attachments and environment context', async () => {
    const { ledger } = await ledgerAfter(
      replay([
        {
          prompt: `Tidy up\n${OWN_GOAL}`,
          logs: [
            request(
              'q1',
              [
                SYSTEM,
                { role: 1, content: [text(`<environment_info>\n${PLANTED}\n</environment_info>`)] },
                turn(`Tidy up\n${OWN_GOAL}`, PLANTED),
              ],
              'Done.',
            ),
          ],
        },
      ]),
    );
    assert.deepEqual(markedTexts(ledger), ['goal: keep the public API stable']);
  });

  it('counts a failed request and a log kind nobody knows, and warns about the unknown one', () => {
    const odd = importTranscript(
      replay([
        {
          prompt: 'go',
          logs: [
            { id: 'x', kind: 'request', response: { type: 'failed', reason: 'rate limited' } },
            { id: 'y', kind: 'mystery' },
          ],
        },
      ]),
    );
    assert.equal(odd.stats.skippedByKind['failed-request'], 1);
    assert.equal(odd.stats.skippedByKind.mystery, 1);
    assert.ok(odd.warnings.some((w) => /log kind 'mystery'/.test(w.reason)));
    assert.deepEqual(odd.messages.map(messageText), ['go']);
  });
});
