import * as assert from 'node:assert/strict';
import { detectTranscriptFormat } from '../../../src/cli/import/detect';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { AGENT_SUMMARY_MARKER } from '../../../src/cli/import/agentSummary';
import { authoredText, messageText, toolCalls, toolResults, type Message } from '../../../src/engine/types';
import { assertWellFormed } from './pairingInvariants';

const user = (id: string, parts: readonly object[]) => ({ info: { id, role: 'user', time: { created: 1_775_000_000_000 } }, parts });
const assistant = (id: string, parts: readonly object[], extra: object = {}) => ({
  info: { id, role: 'assistant', time: { created: 1_775_000_001_000 }, ...extra },
  parts,
});
const text = (value: string, extra: object = {}) => ({ type: 'text', text: value, ...extra });
const step = { type: 'step-start', snapshot: 'abc' };
const finish = { type: 'step-finish', reason: 'tool-calls' };
const tool = (callID: string, state: object) => ({ type: 'tool', tool: 'bash', callID, state });
const exported = (messages: readonly object[]) => JSON.stringify({ info: { id: 'ses_test1', title: 't', version: '1.4.3' }, messages });

const session = exported([
  user('msg_u1', [
    text('why does the build fail?'),
    text('Called the Read tool with the following input: {"filePath":"package.json"}', { synthetic: true }),
    text('a draft the user took back', { ignored: true }),
    { type: 'file', mime: 'text/plain', filename: 'package.json', url: 'file:///p/package.json' },
    { type: 'file', mime: 'image/png', filename: 'screenshot.png', url: 'data:image/png;base64,AAAA' },
  ]),
  assistant('msg_a1', [
    step,
    { type: 'reasoning', text: 'let me look' },
    text('Running the build.'),
    tool('call_1', { status: 'completed', input: { command: 'npm run build' }, output: 'error TS2304: Cannot find name foo' }),
    tool('call_2', { status: 'error', input: { command: 'npm ci' }, error: 'Error: EACCES: permission denied' }),
    finish,
    step,
    text('The build fails on `foo`.'),
    tool('call_3', { status: 'running', input: { command: 'npm test' } }),
    { type: 'patch', hash: 'abc', files: ['src/a.ts'] },
    finish,
  ]),
]);

describe('OpenCode sessions (`opencode export`)', () => {
  it('is detected as opencode from its structure', () => {
    assert.equal(detectTranscriptFormat(session), 'opencode');
  });

  it('makes each step of a reply one assistant message, followed by the results of its calls', () => {
    const imported = importTranscript(session);
    assertWellFormed(imported);
    assert.deepEqual(
      imported.messages.map((m) => m.role),
      ['user', 'assistant', 'tool', 'tool', 'assistant'],
    );
    assert.deepEqual(
      imported.messages[1].blocks.map((b) => b.type),
      ['text', 'toolCall', 'toolCall'],
    );
    const [built, installed] = imported.messages.flatMap(toolResults);
    assert.equal(built.callId, 'call_1');
    assert.match(built.content, /TS2304/);
    assert.equal(built.isError, false);
    assert.equal(installed.isError, true, 'a call whose state is error failed');
    assert.match(installed.content, /EACCES/);
    assert.equal(imported.stats.unansweredCalls, 1, 'a call still running when the session was saved has no result');
    assert.equal(imported.stats.thinkingBlocks, 1);
    assert.equal(imported.sessions[0].id, 'ses_test1');
  });

  it("keeps the user's words as theirs, OpenCode's synthetic text as injected, and leaves out what never reached the model", () => {
    const [first] = importTranscript(session).messages;
    assert.equal(authoredText(first), 'why does the build fail?');
    assert.match(messageText(first), /Called the Read tool/);
    assert.doesNotMatch(messageText(first), /draft the user took back/);
    assert.doesNotMatch(messageText(first), /package\.json$/m, 'a text file arrives through the synthetic text, not as an attachment');
    assert.match(messageText(first), /\[image\] screenshot\.png/);
    assert.equal(importTranscript(session).stats.placeholders, 1);
  });

  it("keeps OpenCode's compaction summary marked, or leaves it out when asked", () => {
    const compacted = exported([
      user('msg_u1', [text('first request')]),
      user('msg_u2', [{ type: 'compaction', auto: true }]),
      assistant('msg_s', [step, text('We fixed the build; next is the tests.'), finish], { summary: true, mode: 'compaction' }),
    ]);
    const kept = importTranscript(compacted);
    const summary = kept.messages.find((m) => messageText(m).includes(AGENT_SUMMARY_MARKER));
    assert.ok(summary !== undefined && summary.role === 'user' && authoredText(summary) === '');
    assert.equal(kept.stats.skippedByKind['native-compaction-request'], 1);
    const dropped = importTranscript(compacted, { keepNativeCompaction: false });
    assert.ok(!dropped.messages.some((m) => messageText(m).includes('We fixed the build')));
  });

  it("reads a shell command that exited non-zero or was stopped as failed by the tool's record, though OpenCode marks it completed", () => {
    const ran = (exit: number | null | undefined, output: string) =>
      tool(`call_${exit}`, { status: 'completed', input: { command: 'npm run lint | tail -3' }, output, metadata: { output, exit } });
    const imported = importTranscript(
      exported([
        user('msg_u1', [text('lint it')]),
        assistant('msg_a1', [
          step,
          ran(2, '× Wrap this branch in braces.\nFound 1 error.'),
          ran(0, 'Checked 12 files. No fixes applied.'),
          ran(undefined, 'Checked 12 files.'),
          ran(null, '(no output)\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>'),
          finish,
        ]),
      ]),
    );
    assert.deepEqual(
      imported.messages.flatMap(toolResults).map((r) => r.isError),
      [true, false, false, true],
    );
  });

  it('leaves out a reply that failed, as OpenCode does, but keeps one the user stopped after it wrote something', () => {
    const imported = importTranscript(
      exported([
        user('msg_u1', [text('go')]),
        assistant('msg_a1', [step, text('half an answer')], { error: { name: 'APIError', data: { message: 'overloaded' } } }),
        assistant('msg_a2', [step, text('stopped here')], { error: { name: 'MessageAbortedError', data: { message: 'aborted' } } }),
      ]),
    );
    const replies = imported.messages.filter((m: Message) => m.role === 'assistant').map(messageText);
    assert.deepEqual(replies, ['stopped here']);
    assert.equal(imported.stats.skippedByKind['failed-reply'], 1);
    assert.equal(imported.messages.flatMap(toolCalls).length, 0);
  });
});
