import * as assert from 'node:assert/strict';
import { MalformedTranscriptError, TranscriptFormatError } from '../../../src/cli/import/importErrors';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { assistantRecord, jsonl, text, userRecord } from './claudeCodeRecords';

describe('malformed and unknown transcripts', () => {
  const withBadLine = [
    JSON.stringify(userRecord('u1', 'hi')),
    '{"type":"assistant","message":{"id":',
    JSON.stringify(assistantRecord('a1', 'msg_1', text('hello'))),
    '',
  ].join('\n');

  it('reports a malformed line with its 1-based number and imports the rest under continue', () => {
    const result = importTranscript(withBadLine, { onMalformed: 'continue' });
    assert.deepEqual(
      result.messages.map((m) => m.id),
      ['u1', 'a1'],
    );
    assert.equal(result.warnings.length, 1);
    assert.equal(result.warnings[0].line, 2);
    assert.equal(result.stats.skippedByKind.malformed, 1);
    assert.equal(result.stats.records, 3);
  });

  it('continues by default', () => {
    assert.equal(importTranscript(withBadLine).messages.length, 2);
  });

  it('throws a MalformedTranscriptError naming the line under stop', () => {
    assert.throws(
      () => importTranscript(withBadLine, { onMalformed: 'stop' }),
      (error: unknown) => error instanceof MalformedTranscriptError && error.line === 2 && /line 2/.test(error.message),
    );
  });

  it('treats a JSON line that is not an object as malformed', () => {
    const result = importTranscript(`${JSON.stringify(userRecord('u1', 'hi'))}\n42\n`);
    assert.deepEqual(
      result.warnings.map((w) => w.line),
      [2],
    );
  });

  it('throws a TranscriptFormatError listing the expected formats for an unknown file', () => {
    assert.throws(
      () => importTranscript(JSON.stringify({ name: 'package', version: '1.0.0' })),
      (error: unknown) =>
        error instanceof TranscriptFormatError &&
        /expected one of: Claude Code session JSONL \(records with type user\/assistant\), OpenAI-style \{messages:\[\.\.\.\]\}/i.test(
          error.message,
        ),
    );
  });

  it('throws a TranscriptFormatError for text that is not JSON at all, and for an empty file', () => {
    assert.throws(() => importTranscript('# A markdown file\n\nNot a transcript.'), TranscriptFormatError);
    assert.throws(() => importTranscript('  \n'), TranscriptFormatError);
  });

  it('throws a TranscriptFormatError when the format asked for does not fit the text', () => {
    assert.throws(
      () => importTranscript(jsonl([userRecord('u1', 'hi'), userRecord('u2', 'again')]), { format: 'openai' }),
      TranscriptFormatError,
    );
    assert.throws(() => importTranscript(JSON.stringify({ history: 'none' }), { format: 'swe-agent' }), TranscriptFormatError);
  });

  it('warns about a list entry that is not a message, or throws under stop', () => {
    const document = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }, 'stray'] });
    assert.match(importTranscript(document).warnings[0].reason, /messages\[1\]/);
    assert.throws(() => importTranscript(document, { onMalformed: 'stop' }), MalformedTranscriptError);
  });
});
