import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_OPTIONS, optionsForBudget } from '../../../src/engine/options';
import { DEFAULT_REPORTED_WINDOW, reportedInputTokens, reportedWindowSetting } from '../../../src/engine/relay/reportedWindow';
import { messageTokensAsSent } from '../../../src/engine/relay/sentTokens';
import { injectedTextBlock, textBlock, toolCallBlock, toolResultBlock } from '../../../src/engine/types';
import { filler } from '../support/builders';
import { agentTurn, fromCaller, instructions, reply, resent, say, type Caller } from '../support/callerConversation';
import { RelayRig, text, type FakeTool } from '../support/relayRig';
import { REPOSITORY_ROOT } from '../support/repository';

/**
 * Callers told the window `extended` reports (eight times the model's, ctx's default): they size what they send to
 * it and leave the compressing to ctx. Whatever they send, every request ctx sends fits the model's real window.
 */
const WINDOW = 24_000;
/** What the rig keeps free for the answer, as ctx does. */
const RESERVE = 4_096;
const REPORTED = reportedInputTokens(WINDOW, 'extended');
const SYSTEM = instructions('You are an expert AI programming assistant.');
const terminal: FakeTool = { name: 'run_in_terminal', definition: 'x'.repeat(4_000) };
const TOOL_TOKENS = terminal.definition.length / 4;

/** Tokens of a message as the caller counts it: through ctx's token count, as ctx will send it. */
function callerCount(messages: readonly Caller[]): Promise<number> {
  return countWithThreshold(messages, optionsForBudget(DEFAULT_OPTIONS, WINDOW - RESERVE).offloadThresholdTokens);
}

/** Tokens of the messages as they came, every result whole. */
function originalCount(messages: readonly Caller[]): Promise<number> {
  return countWithThreshold(messages, Number.POSITIVE_INFINITY);
}

function countWithThreshold(messages: readonly Caller[], offloadThresholdTokens: number): Promise<number> {
  return Promise.all(
    messages.map((m) => messageTokensAsSent(m.blocks, { count: async (t) => Math.ceil(t.length / 4), offloadThresholdTokens })),
  ).then((counts) => counts.reduce((a, b) => a + b, 0));
}

/** Asserts that every request the rig sent fits the real window, its tool definitions and the answer's reserve included. */
async function assertEveryRequestFits(r: RelayRig): Promise<void> {
  assert.ok(r.sent.length > 0);
  for (const [i, request] of r.sent.entries()) {
    const tokens = (await RelayRig.tokensOf(request)) + TOOL_TOKENS;
    assert.ok(tokens <= WINDOW - RESERVE, `request ${i + 1}: ${tokens} tokens, ${WINDOW - RESERVE} fit`);
  }
}

/** A user turn as Copilot sends it: the files it attached, then what the user typed. */
const withFiles = (typed: string, files: readonly string[]): Caller =>
  fromCaller('user', [
    injectedTextBlock(
      `<attachments>\n${files.map((f, i) => `<attachment id="file${i}">\n${f}\n</attachment>`).join('\n')}\n</attachments>`,
    ),
    textBlock(typed),
  ]);

describe('callers told the extended window', () => {
  it('fits attachments a caller sized to the reported window: they go to files, and what the user typed reaches the model as it was', async () => {
    const r = new RelayRig({}, WINDOW);
    let history: Caller[] = [];
    for (let turn = 1; turn <= 3; turn++) {
      // The caller fills half the room it believes it has with four files.
      const room = REPORTED - RESERVE - TOOL_TOKENS - (await callerCount([SYSTEM, ...history]));
      const files = [1, 2, 3, 4].map((n) => filler(Math.floor(room / 8), `turn${turn}file${n}`));
      history = [...resent(history), withFiles(`Explain the four files of turn ${turn}.`, files)];
      assert.ok((await callerCount(history)) > 3 * WINDOW, 'the caller sends several real windows at once');
      await r.script([text(`Turn ${turn} explained.`)]).run([SYSTEM, ...history], [terminal]);
      history.push(reply(`Turn ${turn} explained.`));
    }
    await assertEveryRequestFits(r);
    const last = RelayRig.textOf(r.sent[r.sent.length - 1]);
    assert.ok(last.includes('Explain the four files of turn 3.'));
    assert.match(last, /## Offloaded: attached context of a user message/);
    assert.equal(r.rig.sessions.created, 1, 'one session for the conversation');
  });

  it('fits a round of tool results sized to the reported window, each below the offload threshold', async () => {
    // Results kept whole on arrival, each a fifth of this window, as a result near the 15,000-token threshold is of a 75,000-token one.
    const options = { offloadBudgetShare: 0.25 };
    const r = new RelayRig(options, WINDOW);
    const threshold = optionsForBudget({ ...DEFAULT_OPTIONS, ...options }, WINDOW - RESERVE).offloadThresholdTokens;
    const ids = Array.from({ length: 16 }, (_, i) => `read-${i}`);
    const conversation = [
      say('Read every module of the parser.'),
      fromCaller(
        'assistant',
        ids.map((id, i) => toolCallBlock(id, 'read_file', { path: `src/parser/m${i}.ts` })),
      ),
      fromCaller(
        'tool',
        ids.map((id, i) => toolResultBlock(id, filler(threshold - 200, `module${i}`))),
      ),
    ];
    const counted = await originalCount(conversation);
    assert.ok(counted > 3 * WINDOW && counted < REPORTED - RESERVE, `${counted} tokens: more than the window, less than reported`);
    await r.script([text('Read them all.')]).run([SYSTEM, ...conversation], [terminal]);
    await assertEveryRequestFits(r);
    assert.ok(r.sent[0].tools.includes('ctx_read_offloaded'), 'the model can read the results back');
  });

  it('fits a single message the user typed that is larger than the real window: its first lines and its file reach the model', async () => {
    const r = new RelayRig({}, WINDOW);
    const question = 'Why does this build fail?';
    const pasted = say(`${question}\n${filler(3 * WINDOW, 'pasted')}`);
    await r.script([text('Looking at it.')]).run([SYSTEM, pasted], [terminal]);
    // The caller sends the whole message again with the next turn: ctx goes on from its session.
    await r.script([text('Found it.')]).run([SYSTEM, ...resent([pasted]), reply('Looking at it.'), say('And the fix?')], [terminal]);

    await assertEveryRequestFits(r);
    for (const request of r.sent) {
      const sent = RelayRig.textOf(request);
      assert.ok(sent.includes(question), 'the start of what the user typed');
      assert.equal(sent.split('## Offloaded: user text').length, 2, 'one preview of it');
      assert.ok(request.tools.includes('ctx_read_offloaded'));
    }
    assert.equal(r.rig.sessions.created, 1);
  });

  it('fits a summarization request of a history the caller rendered to the reported window: its start and end, and the prompt as it came', async () => {
    const r = new RelayRig({}, WINDOW);
    const start = 'The user asked to migrate every module to the new API.';
    const end = 'The last command ran the whole test suite: 3 failures in src/api.';
    const rendered = say(`${start}\n${filler(2 * WINDOW, 'history')}${end}`);
    const prompt = say('Summarize the conversation history so far, paying special attention to the most recent agent commands.');
    const outcome = await r.script([text('<summary>Migration in progress.</summary>')]).run([SYSTEM, rendered, prompt], [terminal]);

    assert.equal(outcome.sessionId, undefined, 'no session: it goes as it came, cut to fit');
    await assertEveryRequestFits(r);
    const [request] = r.sent;
    const sent = RelayRig.textOf(request);
    assert.ok(sent.includes(start) && sent.includes(end));
    assert.match(sent, /characters omitted/);
    // Whether a message carries a cache breakpoint is the breakpoints' own test; here, what is sent as it came.
    const asCame = ({ breakpoint: _breakpoint, ...m }: (typeof request.messages)[number]) => m;
    assert.deepEqual(asCame(request.messages[0]), { kind: 'caller', raw: SYSTEM.raw, system: true });
    assert.deepEqual(asCame(request.messages[2]), { kind: 'caller', raw: prompt.raw, system: false });
  });

  it('sends a summarization request that fits as it came', async () => {
    const r = new RelayRig({}, WINDOW);
    const rendered = say(`The user asked for a migration.\n${filler(2_000, 'history')}`);
    const prompt = say('Summarize the conversation history so far.');
    await r.script([text('<summary>Done.</summary>')]).run([SYSTEM, rendered, prompt], [terminal]);
    assert.deepEqual(
      r.sent[0].messages.map((m) => (m.kind === 'caller' ? m.raw : undefined)),
      [SYSTEM.raw, rendered.raw, prompt.raw],
    );
  });

  it('never compacts a long agent session itself, and every request fits', async () => {
    const r = new RelayRig({}, WINDOW);
    let history: Caller[] = [say('Migrate every module.')];
    let compactions = 0;
    for (let step = 1; step <= 60; step++) {
      history = [...resent(history), ...agentTurn(step, filler(step % 7 === 0 ? 9_000 : 300 + ((step * 131) % 2_700), `module${step}`))];
      // The caller compacts when its count passes the window it was told, as Copilot's agent does.
      if ((await callerCount([SYSTEM, ...history])) + TOOL_TOKENS > REPORTED - RESERVE) compactions++;
      await r.run([SYSTEM, ...history], [terminal]);
    }
    assert.ok((await originalCount(history)) > 3 * WINDOW, 'the session holds several real windows');
    assert.equal(compactions, 0);
    assert.equal(r.rig.sessions.created, 1);
    await assertEveryRequestFits(r);
  });
});

describe('the reported window setting', () => {
  it('reports eight times the wrapped window by default, so that callers leave the compressing to ctx', () => {
    assert.equal(DEFAULT_REPORTED_WINDOW, 'extended');
    assert.equal(reportedInputTokens(60_000, reportedWindowSetting(undefined)), 480_000);
    assert.equal(reportedInputTokens(60_000, reportedWindowSetting('something else')), 480_000);
    const manifest = JSON.parse(fs.readFileSync(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
    };
    assert.equal(
      manifest.contributes.configuration.properties['ctx.models.reportedWindow'].default,
      DEFAULT_REPORTED_WINDOW,
      'the setting says so',
    );
  });

  it('reports the wrapped window itself when set to model', () => {
    assert.equal(reportedInputTokens(60_000, reportedWindowSetting('model')), 60_000);
  });
});
