import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseTranscriptChunks } from '../../../src/cli/import/parseTranscriptChunks';
import { parseTranscriptText, type ParsedTranscript } from '../../../src/cli/import/parseTranscriptText';
import { InputError } from '../../../src/cli/cliErrors';
import { readTranscriptRecords } from '../../../src/cli/readTranscriptFile';
import { assistantRecord, jsonl, text, toolResult, toolUse, userRecord } from './claudeCodeRecords';

/** The text in chunks of `size` characters. */
async function* chunksOf(value: string, size: number): AsyncGenerator<string> {
  for (let at = 0; at < value.length; at += size) yield value.slice(at, at + size);
}

/** What the streaming parser gives for the text in chunks of `size`, and whether it read the text whole. */
async function streamed(value: string, size: number): Promise<{ result: ParsedTranscript | Error; readWhole: boolean }> {
  let readWhole = false;
  const whole = () => {
    readWhole = true;
    return Promise.resolve(value);
  };
  const result = await parseTranscriptChunks(chunksOf(value, size), whole).catch((e: unknown) => e as Error);
  return { result, readWhole };
}

function wholeTextResult(value: string): ParsedTranscript | Error {
  try {
    return parseTranscriptText(value);
  } catch (e) {
    return e as Error;
  }
}

const session = jsonl([
  userRecord('u1', 'Read the config — and the naïve café ☕ file 𝄞'),
  assistantRecord('a1', 'msg_1', toolUse('t1', 'Read', { file_path: 'config.json' })),
  userRecord('r1', [toolResult('t1', '{\n  "port": 8080\n}')]),
  assistantRecord('a2', 'msg_2', text('The port is 8080.')),
]);

const crlf = session.replace(/\n/g, '\r\n');
const deep = `${'['.repeat(300)}${']'.repeat(300)}`;

const transcripts: Record<string, string> = {
  'JSON Lines': session,
  'JSON Lines with a byte order mark, CRLF line ends, a bad line, blank lines, no final line break': `\ufeff${crlf}not json\r\n\r\n   \n{"type":"user"}`,
  'JSON Lines with lines that are not JSON, not objects or nested too deep': `${session}not json\n[1, 2]\n{"a": ${deep}}\n42\n`,
  'JSON Lines whose first line is a JSON value but no object': `"header"\n${session}`,
  'JSON Lines whose first line is not JSON': `{"torn": \n${session}`,
  'a carriage return inside a line': `${JSON.stringify({ type: 'user', note: 'a' })}\r${JSON.stringify({ b: 1 })}\n${session}`,
  'one JSON document over several lines': JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }, null, 2),
  'one JSON document on one line': JSON.stringify([{ role: 'user', content: 'hi' }]),
  'one JSON Lines record and blank lines': `\n\n${JSON.stringify({ type: 'user' })}\n\n`,
  'a bare JSON value': '42',
  'an empty text': ' \n \r\n',
  'no JSON at all': 'hello\nworld\n',
  'a Markdown text whose first line is a JSON object': '{"a": 1}\n# Notes\n\nsome text\nmore text\n',
};

describe('Reading a transcript as it streams in', () => {
  for (const [name, value] of Object.entries(transcripts)) {
    it(`gives what the whole-text reader gives, in chunks of any size: ${name}`, async () => {
      const expected = wholeTextResult(value);
      for (const size of [1, 2, 3, 7, 64, value.length + 1]) {
        const { result } = await streamed(value, size);
        if (expected instanceof Error) {
          assert.ok(result instanceof Error, `chunks of ${size}: expected ${expected.message}`);
          assert.equal(result.constructor, expected.constructor);
          assert.equal(result.message, expected.message);
        } else assert.deepEqual(result, expected, `chunks of ${size}`);
      }
    });
  }

  it('parses JSON Lines line by line without reading the whole text', async () => {
    const { result, readWhole } = await streamed(session, 5);
    assert.equal(readWhole, false);
    assert.equal((result as ParsedTranscript).kind, 'lines');
  });

  it('reads as plain text a text in which most lines are not JSON objects, even when its first line is one', async () => {
    const { result, readWhole } = await streamed(transcripts['a Markdown text whose first line is a JSON object'], 5);
    assert.equal(readWhole, true);
    assert.equal((result as ParsedTranscript).kind, 'text');
    assert.equal((wholeTextResult(session) as ParsedTranscript).kind, 'lines');
  });

  it('reads a text that may be one JSON document whole', async () => {
    assert.equal((await streamed(transcripts['one JSON document over several lines'], 5)).readWhole, true);
    assert.equal((await streamed(transcripts['JSON Lines whose first line is not JSON'], 5)).readWhole, true);
  });

  it('reads a file larger than a chunk, multi-byte characters across chunk boundaries, as its whole text parses', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-stream-'));
    try {
      const file = path.join(folder, 'long.jsonl');
      const records = Array.from({ length: 6_000 }, (_, i) => userRecord(`u${i}`, `${'é☕𝄞'.repeat(i % 97)} line ${i}`));
      fs.writeFileSync(file, jsonl(records));
      assert.ok(fs.statSync(file).size > 2 * 1024 * 1024);
      assert.deepEqual(await readTranscriptRecords(file), parseTranscriptText(fs.readFileSync(file, 'utf8')));
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('says in plain words that a file is missing or a folder', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-stream-'));
    try {
      await assert.rejects(
        readTranscriptRecords(path.join(folder, 'missing.jsonl')),
        (e: unknown) => e instanceof InputError && /Cannot read/.test(e.message),
      );
      await assert.rejects(readTranscriptRecords(folder), (e: unknown) => e instanceof InputError && /is a folder/.test(e.message));
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
