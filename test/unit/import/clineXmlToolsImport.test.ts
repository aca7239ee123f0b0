import * as assert from 'node:assert/strict';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { messageText, toolCalls, toolResults } from '../../../src/engine/types';
import { text } from './claudeCodeRecords';
import { assertWellFormed } from './pairingInvariants';

/** A Cline or Roo Code history from before native tool calling: the calls are XML in the assistant's text. */
function history(assistantContent: (value: string) => unknown): string {
  return JSON.stringify([
    {
      role: 'user',
      content: [text('<task>\nFind why the nightly export stalls\n</task>'), text('<environment_details>\nnow\n</environment_details>')],
    },
    {
      role: 'assistant',
      content: assistantContent(
        [
          '<thinking>\nThe scheduler is the likeliest place.\n</thinking>',
          'I will read the scheduler first.\n',
          '<read_file>\n<path>src/export/scheduler.ts</path>\n</read_file>',
        ].join('\n'),
      ),
    },
    {
      role: 'user',
      content: [
        text("[read_file for 'src/export/scheduler.ts'] Result:"),
        text('1 | export const NIGHTLY_CRON = "0 3 * * *";'),
        text('<environment_details>\nnow\n</environment_details>'),
      ],
    },
    {
      role: 'assistant',
      content: assistantContent(
        '<execute_command>\n<command>npm run export:dry\n\n[Response interrupted by a tool use result. Only one tool may be used at a time.]',
      ),
    },
    {
      role: 'user',
      content: [
        text("[execute_command for 'npm run export:dry'] Result:"),
        text('The tool execution failed with the following error:\n<error>\nThis tool is not available in the current mode.\n</error>'),
      ],
    },
  ]);
}

describe("Cline's calls in XML, from before native tool calling", () => {
  for (const [shape, content] of [
    ['text blocks alone', (value: string) => [text(value)]],
    [
      'text beside an image',
      (value: string) => [text(value), { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }],
    ],
  ] as const) {
    it(`reads a tag the next turn answers as a call with its parameters, and its result as the call's (${shape})`, () => {
      const imported = importTranscript(history(content));
      assertWellFormed(imported);
      const calls = imported.messages.flatMap(toolCalls);
      assert.deepEqual(
        calls.map((c) => [c.name, c.input]),
        [
          ['read_file', { path: 'src/export/scheduler.ts' }],
          ['execute_command', { command: 'npm run export:dry' }],
        ],
      );
      const results = imported.messages.flatMap(toolResults);
      assert.equal(results.length, 2);
      assert.match(results[0].content, /NIGHTLY_CRON/);
      assert.equal(results[1].isError, true, 'the error frame marks the failed call');
      const said = imported.messages
        .filter((m) => m.role === 'assistant')
        .map(messageText)
        .join('\n');
      assert.match(said, /I will read the scheduler first\./);
      assert.match(said, /<thinking>/, 'a tag no result answers stays the assistant’s text');
      assert.doesNotMatch(said, /<read_file>/);
    });
  }

  it('leaves a tag that looks like a call as text when the next turn answers no tool of its name', () => {
    const imported = importTranscript(
      JSON.stringify([
        { role: 'user', content: [text('<task>\nExplain the cron format\n</task>')] },
        { role: 'assistant', content: [text('A cron line reads:\n<read_file>\n<path>not a call</path>\n</read_file>')] },
        { role: 'user', content: [text('<feedback>\nthanks\n</feedback>')] },
      ]),
    );
    assert.equal(imported.messages.flatMap(toolCalls).length, 0);
    assert.match(imported.messages.map(messageText).join('\n'), /<read_file>/);
  });
});
