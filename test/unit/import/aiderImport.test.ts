import * as assert from 'node:assert/strict';
import { detectTranscriptFormat } from '../../../src/cli/import/detect';
import { TranscriptFormatError } from '../../../src/cli/import/importErrors';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { authoredText, messageText } from '../../../src/engine/types';
import { assertWellFormed } from './pairingInvariants';

/** A history as Aider writes it: user lines `#### `, its own output `> ` (first line only) ending with two spaces. */
const history = [
  '',
  '# aider chat started at 2026-04-23 10:15:02',
  '',
  '> /home/user/.local/bin/aider --model sonnet  ',
  '> Aider v0.86.1  ',
  '',
  '#### the hotkey inserts the same text every time  ',
  '#### can you find why?  ',
  '> Add file to the chat? (Y)es/(N)o [Yes]: y  ',
  '',
  '<thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>',
  'The user asks about the hotkey; look at the cache key.',
  '</thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>',
  '',
  'The cache key ignores the recording id:',
  '',
  'src/hotkey.ts',
  '```ts',
  '<<<<<<< SEARCH',
  '> a quoted line inside the code',
  '#### not a user line either',
  '=======',
  'const key = `${deviceId}:${recordingId}`;',
  '>>>>>>> REPLACE',
  '```',
  '',
  '> Tokens: 3.7k sent, 286 received.  ',
  '> # 1 SEARCH/REPLACE block failed to match!',
  '',
  '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in src/hotkey.ts',
  'The SEARCH section must exactly match an existing block of lines  ',
  '',
  '#### try again  ',
  '',
  '#### and run the tests  ',
  '',
  '# aider chat started at 2026-04-24 09:00:00',
  '',
  '#### /exit  ',
  '',
].join('\n');

describe("Aider's chat history", () => {
  it('is detected as aider, a Markdown text, by its run heading', () => {
    assert.equal(detectTranscriptFormat(history), 'aider');
  });

  it("reads the user's lines as one message of theirs, Aider's output as injected text and the rest as the model's reply", () => {
    const imported = importTranscript(history);
    assertWellFormed(imported);
    assert.deepEqual(
      imported.messages.map((m) => [m.role, authoredText(m) !== '']),
      [
        ['user', false],
        ['user', true],
        ['user', false],
        ['assistant', true],
        ['user', false],
        ['user', true],
        ['user', true],
        ['user', true],
      ],
    );
    assert.equal(authoredText(imported.messages[1]), 'the hotkey inserts the same text every time\ncan you find why?');
    assert.match(messageText(imported.messages[0]), /^\/home\/user\/\.local\/bin\/aider --model sonnet\nAider v0\.86\.1$/);
  });

  it("marks what Aider printed as its printed output, never anyone's words, and nothing else so", () => {
    const imported = importTranscript(history);
    const printed = imported.messages.map((m) => m.blocks.some((b) => b.type === 'text' && b.printed === true && b.injected === true));
    assert.deepEqual(printed, [true, false, true, false, true, false, false, false]);
  });

  it('takes the reasoning Aider writes between its tags out of the reply, as Aider does before sending it back', () => {
    const imported = importTranscript(history);
    const reply = imported.messages.find((m) => m.role === 'assistant');
    assert.ok(reply !== undefined);
    assert.match(messageText(reply), /^The cache key ignores the recording id:/);
    assert.doesNotMatch(messageText(reply), /look at the cache key|thinking-content/);
    assert.equal(imported.stats.thinkingBlocks, 1);
  });

  it("keeps every line inside a reply's code fence in the reply", () => {
    const reply = importTranscript(history).messages.find((m) => m.role === 'assistant');
    assert.ok(reply !== undefined);
    assert.match(messageText(reply), /> a quoted line inside the code\n#### not a user line either/);
  });

  it("runs a notice of several lines on to the line that ends with Aider's line break", () => {
    const notice = importTranscript(history).messages[4];
    assert.match(
      messageText(notice),
      /^Tokens: 3\.7k sent, 286 received\.\n# 1 SEARCH\/REPLACE block failed to match!\n\n## SearchReplaceNoExactMatch/,
    );
    assert.match(messageText(notice), /an existing block of lines$/);
  });

  it("keeps two inputs apart when a blank line is between them, and dates each run's messages by its heading", () => {
    const imported = importTranscript(history);
    assert.deepEqual(imported.messages.slice(5).map(authoredText), ['try again', 'and run the tests', '/exit']);
    assert.equal(imported.messages[1].at, Date.parse('2026-04-23T10:15:02Z'));
    assert.equal(imported.messages[7].at, Date.parse('2026-04-24T09:00:00Z'));
    assert.equal(imported.stats.skippedByKind['run-start'], 2);
  });

  it('says a Markdown text that is no chat history it reads is not a transcript, and refuses a format that does not fit', () => {
    assert.throws(() => importTranscript('# Notes\n\nSome text.\n'), TranscriptFormatError);
    assert.throws(() => importTranscript(history, { format: 'codex' }), TranscriptFormatError);
    assert.throws(() => importTranscript(JSON.stringify({ messages: [] }), { format: 'aider' }), TranscriptFormatError);
  });
});
