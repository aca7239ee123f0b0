import * as assert from 'node:assert/strict';
import { injectedTextBlock, messageText } from '../../../src/engine/types';
import { filler } from '../support/builders';
import { callTool, fromCaller, instructions, resent, say, toolOutput, type Caller } from '../support/callerConversation';
import { RelayRig, text, toolCall, type FakeTool } from '../support/relayRig';

/**
 * Requests in the shape Copilot's agent (VS Code 1.139) sends a ctx model: its system prompt, an
 * `<environment_info>` block as a user message of its own, the user's request, then tool rounds. When
 * its count of the history nears the window it compacts, sometimes right after the model asked for a
 * tool call and before sending its result: the next request is its system prompt, the environment
 * block, its summary and the round of that call, nothing else of the history. It asks the model for
 * that summary with a request of its own, of two shapes: the conversation with its prompt after it,
 * or the history rendered as one text with its prompt after it.
 */
const SYSTEM = instructions('You are an expert AI programming assistant, working with a user in the VS Code editor.');
const ENVIRONMENT = fromCaller('user', [injectedTextBlock("<environment_info>\nThe user's current OS is: Linux\n</environment_info>")]);
const REQUEST = say('Read every part of the nightly build log, one call per part, and sum it up.');
const terminal: FakeTool = { name: 'read_log', definition: 'Reads one part of the build log.' };

const call = (n: number, conversation = 'log'): Caller => callTool(`${conversation}_${n}`, 'read_log', { part: n }, `Reading part ${n}.`);
const result = (n: number, conversation = 'log'): Caller =>
  toolOutput(`${conversation}_${n}`, `Part ${n} of the ${conversation}:\n${filler(200, `${conversation}${n}`)}`);
const summary = (n: number) => say(`<conversation-summary>\nParts 1 to ${n} of the build log are read.\n</conversation-summary>`);
const SIMPLE_PROMPT = say('The conversation has grown too large for the context window and must be compacted now.\n\nSummarize it.');
const FULL_PROMPT = say('Summarize the conversation history so far, paying special attention to the most recent agent commands.');

/**
 * Plays rounds 1..`rounds` of the turn: each request resends the history, and the model answers with the next call.
 * Returns the history of the last request and the session id.
 */
async function playTurn(r: RelayRig, rounds: number, head: readonly Caller[] = [ENVIRONMENT, REQUEST], conversation = 'log') {
  let history: Caller[] = [...head];
  let sessionId: string | undefined;
  for (let n = 1; n <= rounds; n++) {
    const outcome = await r
      .script([text(`Reading part ${n}.`), toolCall(`${conversation}_${n}`, 'read_log', { part: n })])
      .run([SYSTEM, ...history], [terminal]);
    sessionId ??= outcome.sessionId;
    assert.equal(outcome.sessionId, sessionId, `request ${n} stays in the session`);
    history = [...resent(history), call(n, conversation), result(n, conversation)];
  }
  return { history, sessionId };
}

describe("a caller's own compaction of a relayed conversation", () => {
  it("continues the session when the caller's history after its summary starts with the tool call the model just made", async () => {
    const r = new RelayRig();
    const { history, sessionId } = await playTurn(r, 4);
    // The model asks for part 5; the caller compacts before it sends the result.
    await r.script([text('Reading part 5.'), toolCall('log_5', 'read_log', { part: 5 })]).run([SYSTEM, ...resent(history)], [terminal]);
    const compacted = await r.script([text('Next.')]).run([SYSTEM, ENVIRONMENT, summary(4), call(5), result(5)], [terminal]);
    assert.equal(compacted.route, 'continued');
    assert.equal(compacted.sessionId, sessionId);
    assert.equal(r.rig.sessions.created, 1);
    const session = r.preparedFor[r.preparedFor.length - 1].session;
    assert.equal(session.title, messageText({ id: '', role: 'user', blocks: REQUEST.blocks }), "titled by the user's request");
    const archived = await session.readArchive();
    const archive = archived.map(messageText);
    const results = archived.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'toolResult' ? [b.callId] : [])));
    assert.equal(archive.filter((t) => t.includes('Parts 1 to 4 of the build log are read.')).length, 1, 'the summary is archived once');
    assert.deepEqual(results, ['log_1', 'log_2', 'log_3', 'log_4', 'log_5'], 'every result once, the new round with them');
    assert.deepEqual(
      session.ledger.userMessages.map((u) => u.text),
      [messageText({ id: '', role: 'user', blocks: REQUEST.blocks })],
      "the summary is the caller's text, not the user's",
    );
  });

  it('keeps the session when the caller sends the result after its summary again, rendered anew, with the next round', async () => {
    const r = new RelayRig();
    const { history, sessionId } = await playTurn(r, 4);
    await r.script([toolCall('log_5', 'read_log', { part: 5 })]).run([SYSTEM, ...resent(history)], [terminal]);
    await r.script([toolCall('log_6', 'read_log', { part: 6 })]).run([SYSTEM, ENVIRONMENT, summary(4), call(5), result(5)], [terminal]);
    const shortened = toolOutput('log_5', 'Part 5 of the log: 200 lines, all compiled.');
    const next = await r.script([text('Next.')]).run([SYSTEM, ENVIRONMENT, summary(4), call(5), shortened, call(6), result(6)], [terminal]);
    assert.equal(next.route, 'continued');
    assert.equal(next.sessionId, sessionId);
    assert.equal(r.rig.sessions.created, 1);
    const session = r.preparedFor[r.preparedFor.length - 1].session;
    const results = (await session.readArchive()).flatMap((m) => m.blocks.flatMap((b) => (b.type === 'toolResult' ? [b.callId] : [])));
    assert.deepEqual(results, ['log_1', 'log_2', 'log_3', 'log_4', 'log_5', 'log_6'], 'the result rendered anew is not added again');
  });

  it('starts a new session for a request whose first tool call after a summary is one the model never made through ctx', async () => {
    const r = new RelayRig();
    const { sessionId } = await playTurn(r, 4);
    const other = await r.script([text('Next.')]).run([SYSTEM, ENVIRONMENT, summary(4), call(5, 'other'), result(5, 'other')], [terminal]);
    assert.notEqual(other.sessionId, sessionId);
    assert.equal(other.route, 'started');
  });

  it('sends a summarization request of a history the caller rendered as text as it came, without a session', async () => {
    const r = new RelayRig();
    await playTurn(r, 3);
    const sessions = r.rig.sessions.created;
    const rendered = say(`The following is a compressed version of the preceeding history:\n${filler(300, 'history')}`);
    const outcome = await r
      .script([text('<summary>Three parts read.</summary>')])
      .run([instructions('Your task is to create a summary.'), rendered, FULL_PROMPT]);
    assert.equal(outcome.sessionId, undefined);
    assert.equal(r.rig.sessions.created, sessions, 'no session for it');
    assert.deepEqual(
      r.sent[r.sent.length - 1].messages.map((m) => (m.kind === 'caller' ? m.raw : undefined)),
      [instructions('Your task is to create a summary.').raw, rendered.raw, FULL_PROMPT.raw],
    );
    assert.deepEqual(r.reported.slice(-1), ['text:<summary>Three parts read.</summary>']);
  });

  it("asks for the summary of the conversation within the window with the caller's prompt last, and the session never keeps the prompt", async () => {
    const r = new RelayRig();
    const { history, sessionId } = await playTurn(r, 4);
    const asked = await r
      .script([text('<summary>Four parts read.</summary>')])
      .run([SYSTEM, ...resent(history), SIMPLE_PROMPT], [terminal]);
    assert.equal(asked.sessionId, sessionId);
    const last = r.sent[r.sent.length - 1].messages;
    assert.deepEqual(
      last[last.length - 1],
      { kind: 'caller', raw: SIMPLE_PROMPT.raw, system: false, breakpoint: true },
      'the prompt goes last, as sent',
    );
    const session = r.preparedFor[r.preparedFor.length - 1].session;
    assert.ok(!session.messages.some((m) => messageText(m).includes('must be compacted now')), 'the session does not hold the prompt');
    // The loop goes on without the prompt: the same conversation, continued, not an edit that branches.
    const next = await r.script([text('Next.')]).run([SYSTEM, ...resent(history), call(5), result(5)], [terminal]);
    assert.equal(next.route, 'continued');
    assert.equal(next.sessionId, sessionId);
    assert.equal(r.rig.sessions.created, 1);
  });
});
