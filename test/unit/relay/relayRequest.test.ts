import * as assert from 'node:assert/strict';
import { MAX_RECOVERY_ROUNDS } from '../../../src/engine/relay/recoveryRounds';
import { messageText } from '../../../src/engine/types';
import { filler } from '../support/builders';
import { agentTurn, callTool, instructions, reply, resent, say, toolOutput, type Caller } from '../support/callerConversation';
import { RelayRig, text, toolCall, type FakeTool } from '../support/relayRig';
import type { Outgoing } from '../../../src/engine/relay/outgoing';
import { SUMMARY_QUESTION_ID } from '../../../src/engine/summary/conversationSummary';
import type { Summarizer } from '../../../src/engine/summary/summarizer';

const terminal: FakeTool = { name: 'run_in_terminal', definition: 'x'.repeat(4_000) };

/** A conversation whose tool output is far above the offload threshold. */
const withLargeOutput = (): Caller[] => [
  say('Why does the service not start?'),
  callTool('c1', 'run_in_terminal', { command: 'journalctl -u api' }),
  toolOutput('c1', `${filler(6_000, 'journal')}listening on port 8443 failed: address in use\n`),
  reply('The port is taken.'),
  say('Which port was it?'),
];

describe('relayed requests', () => {
  it('streams every part of the answer back as it arrives, in order', async () => {
    const r = new RelayRig().script([text('Looking. '), toolCall('c9', 'run_in_terminal', { command: 'ls' }), text('Done.')]);
    const seen: number[] = [];
    r.afterPart = () => seen.push(r.reported.length);
    await r.run([say('List the files.')], [terminal]);
    assert.deepEqual(r.reported, ['text:Looking. ', 'call:run_in_terminal', 'text:Done.']);
    assert.deepEqual(seen, [1, 2, 3], 'each part was passed on before the next one arrived');
  });

  it('sends the caller’s instructions first, as it sent them and outside the session, with the caller’s tools', async () => {
    const r = new RelayRig();
    const system = instructions('You are a careful agent.');
    const outcome = await r.run([system, say('Hi.')], [terminal]);
    const [request] = r.sent;
    assert.deepEqual(request.tools, ['run_in_terminal']);
    assert.deepEqual(request.messages[0], { kind: 'caller', raw: system.raw, system: true, breakpoint: true });
    const session = r.preparedFor[0].session;
    assert.equal(session.id, outcome.sessionId);
    assert.ok(session.messages.every((m) => m.role !== 'system'));
  });

  it('keeps one session when the caller compacts: its summary and the rounds after it reach the model, the older rounds stay archived', async () => {
    const r = new RelayRig();
    const prompt = instructions('You are an expert AI programming assistant.');
    const round = (n: number): Caller[] => [
      callTool(`call_${n}`, 'run_in_terminal', { command: `make part${n}` }),
      toolOutput(`call_${n}`, `part${n} built`),
    ];
    let history: Caller[] = [say('Build every part.')];
    const outcomes = [];
    for (let n = 1; n <= 6; n++) {
      history = [...resent(history), ...round(n)];
      outcomes.push(await r.script([text('Next.')]).run([prompt, ...history]));
    }
    const summary = 'Summary: parts 1 to 6 are built.';
    const compacted = await r.script([text('Next.')]).run([prompt, say(summary), ...round(5), ...round(6), ...round(7)]);
    assert.equal(compacted.route, 'continued');
    assert.equal(compacted.sessionId, outcomes[0].sessionId);
    assert.equal(compacted.added, 3);
    assert.equal(r.rig.sessions.created, 1);
    const sent = RelayRig.textOf(r.sent[r.sent.length - 1]);
    for (const t of [summary, 'part7 built', 'Build every part.']) assert.ok(sent.includes(t), `${t} reaches the model`);
  });

  it('continues the session when the caller’s instructions change between requests', async () => {
    const r = new RelayRig();
    const history = [say('Fix the flaky test.'), callTool('c1', 'run_in_terminal', { command: 'npm test' }), toolOutput('c1', 'ok')];
    const first = await r.run([instructions('You are an agent. Today is Monday.'), ...history]);
    const second = await r.run([instructions('You are an agent. Today is Tuesday.'), ...resent(history), reply('Fixed.')]);
    assert.equal(second.route, 'continued');
    assert.equal(second.sessionId, first.sessionId);
    assert.equal(second.added, 1);
    assert.ok(r.sent[1].messages[0].kind === 'caller' && r.sent[1].messages[0].system, 'the instructions go first, as sent');
    assert.match(RelayRig.textOf(r.sent[1]), /Tuesday/);
    assert.doesNotMatch(RelayRig.textOf(r.sent[1]), /Monday/);
  });

  it('gives the session the wrapped window less the answer reserve, the instructions and the tool definitions', async () => {
    const r = new RelayRig({}, 100_000);
    const outcome = await r.run([instructions('i'.repeat(8_000)), say('Hi.')], [terminal]);
    assert.equal(outcome.fixedTokens, 2_000 + 1_000);
    assert.equal(r.preparedFor[0].prepared.budget, 100_000 - 4_096 - 3_000);
  });

  it('keeps a long agent conversation inside the wrapped model’s window, however much the caller sends', async () => {
    const window = 24_000;
    const r = new RelayRig({}, window);
    let conversation: Caller[] = [say('Migrate every module.')];
    for (let i = 1; i <= 40; i++) {
      conversation = [...resent(conversation), ...agentTurn(i, filler(i % 5 === 0 ? 9_000 : 600, `module${i}`))];
      await r.run(conversation, [terminal]);
    }
    const callerTokens = conversation.reduce((sum, m) => sum + m.blocks.reduce((s, b) => s + JSON.stringify(b).length / 4, 0), 0);
    assert.ok(callerTokens > 3 * window, 'the caller sent several windows’ worth');
    for (const { prepared } of r.preparedFor) assert.ok(prepared.tokens <= prepared.budget, `${prepared.tokens} ≤ ${prepared.budget}`);
    const last = r.sent[r.sent.length - 1];
    assert.ok(!RelayRig.textOf(last).includes(filler(9_000, 'module40')), 'the large output went as its preview');
  });

  it('offers ctx’s recovery tools once something was compressed away, and not before', async () => {
    const r = new RelayRig({ offloadThresholdTokens: 1_000 });
    await r.run([say('Hi.')], [terminal]);
    assert.deepEqual(r.sent[0].tools, ['run_in_terminal']);
    await r.run(withLargeOutput(), [terminal]);
    assert.deepEqual(r.sent[1].tools, ['run_in_terminal', 'ctx_recover', 'ctx_read_offloaded']);
  });

  it('answers the model’s ctx_recover call itself: the caller sees only the final answer, and the session does not keep the lookup', async () => {
    const r = new RelayRig({ offloadThresholdTokens: 1_000 }).script(
      [toolCall('r1', 'ctx_recover', { query: 'port' })],
      [text('It was port 8443.')],
    );
    const outcome = await r.run(withLargeOutput(), [terminal]);
    assert.deepEqual(r.reported, ['text:It was port 8443.']);
    assert.equal(outcome.recoveryCalls, 1);
    assert.deepEqual(
      r.recoveryCalls.map((c) => c.input),
      [{ query: 'port' }],
    );
    const second = r.sent[1].messages;
    const [call, result] = second.slice(-2);
    assert.ok(call.kind === 'engine' && call.message.blocks.some((b) => b.type === 'toolCall' && b.name === 'ctx_recover'));
    assert.ok(result.kind === 'engine' && messageText(result.message) === '' && result.message.blocks[0].type === 'toolResult');
    assert.match(
      result.kind === 'engine' && result.message.blocks[0].type === 'toolResult' ? result.message.blocks[0].content : '',
      /8443/,
    );
    const session = r.preparedFor[0].session;
    assert.ok(!session.messages.some((m) => m.blocks.some((b) => b.type === 'toolCall' && b.name === 'ctx_recover')));
  });

  it('leaves a recovery tool the caller offers itself to the caller', async () => {
    const callersOwn: FakeTool = { name: 'ctx_recover', definition: 'the caller’s own registration of the tool' };
    const r = new RelayRig({ offloadThresholdTokens: 1_000 }).script([toolCall('r1', 'ctx_recover', { query: 'port' })]);
    await r.run(withLargeOutput(), [terminal, callersOwn]);
    assert.deepEqual(r.reported, ['call:ctx_recover']);
    assert.deepEqual(r.recoveryCalls, []);
    assert.deepEqual(r.sent[0].tools, ['run_in_terminal', 'ctx_recover', 'ctx_read_offloaded']);
  });

  it('lets the model look things up for a bounded number of rounds, then asks it without the recovery tools', async () => {
    const lookup = [toolCall('r', 'ctx_recover', { query: 'again' })];
    const r = new RelayRig({ offloadThresholdTokens: 1_000 }).script(...Array.from({ length: MAX_RECOVERY_ROUNDS + 2 }, () => lookup));
    const outcome = await r.run(withLargeOutput(), [terminal]);
    assert.equal(r.sent.length, MAX_RECOVERY_ROUNDS);
    assert.deepEqual(r.sent[r.sent.length - 1].tools, ['run_in_terminal']);
    assert.equal(outcome.recoveryCalls, MAX_RECOVERY_ROUNDS - 1);
  });

  it('leaves out a recovery call made next to one of the caller’s tools, which goes to the caller', async () => {
    const r = new RelayRig({ offloadThresholdTokens: 1_000 }).script([
      toolCall('r1', 'ctx_recover', { query: 'port' }),
      toolCall('c2', 'run_in_terminal', { command: 'ss -ltnp' }),
    ]);
    await r.run(withLargeOutput(), [terminal]);
    assert.deepEqual(r.reported, ['call:run_in_terminal']);
    assert.equal(r.sent.length, 1);
    assert.deepEqual(r.recoveryCalls, []);
  });

  it('stops forwarding as soon as the caller cancels', async () => {
    const r = new RelayRig().script([text('one'), text('two'), text('three')]);
    r.afterPart = () => r.cancellation.cancel();
    const outcome = await r.run([say('Count.')]);
    assert.deepEqual(r.reported, ['text:one']);
    assert.equal(outcome.cancelled, true);
  });

  it('passes the wrapped model’s error through unchanged, after what it had already said', async () => {
    const quota = new Error('quota exceeded');
    const r = new RelayRig().script([text('Partial'), { kind: 'fail', error: quota }]);
    await assert.rejects(r.run([say('Go.')]), (e) => e === quota);
    assert.deepEqual(r.reported, ['text:Partial']);
  });

  it('sends a request of instructions only as it came, without a session', async () => {
    const r = new RelayRig().script([text('ok')]);
    const system = instructions('Summarize nothing.');
    const outcome = await r.run([system]);
    assert.equal(outcome.sessionId, undefined);
    assert.deepEqual(r.sent[0].messages, [{ kind: 'caller', raw: system.raw, system: true, breakpoint: true }]);
    assert.deepEqual(r.reported, ['text:ok']);
    assert.equal(r.rig.sessions.created, 0);
  });

  describe('a checkpoint’s summary', () => {
    /** The conversation's own model as a summarizer: it must never get a prompt of its own while it can be asked in the conversation. */
    const ownModel = (): Summarizer & { prompts: number } => ({
      name: 'wrapped-model',
      maxInputTokens: 24_000,
      prompts: 0,
      async summarize() {
        this.prompts++;
        return '## Session Summary\nA prompt of its own.\n[NEXT] keep going';
      },
    });
    const sameOutgoing = (a: Outgoing<unknown>, b: Outgoing<unknown>) =>
      JSON.stringify({ ...a, breakpoint: undefined }) === JSON.stringify({ ...b, breakpoint: undefined });
    const startsWith = (longer: readonly Outgoing<unknown>[], shorter: readonly Outgoing<unknown>[]) =>
      shorter.length <= longer.length && shorter.every((m, i) => sameOutgoing(m, longer[i]));

    async function longAgentRun(r: RelayRig): Promise<void> {
      const system = instructions('You are a careful agent.');
      let conversation: Caller[] = [system, say('Migrate every module.')];
      for (let i = 1; i <= 36; i++) {
        conversation = [...resent(conversation), ...agentTurn(i, filler(600, `module${i}`))];
        await r.run(conversation, [terminal]);
        await r.preparedFor.at(-1)?.session.whenPreparationSettled();
      }
    }

    it('is asked of the conversation’s own model as its next request: the request sent before it, what came since, the question', async () => {
      const r = new RelayRig({}, 24_000);
      const model = ownModel();
      r.turnOptions = async () => ({ summarizer: model, summarizerIsConversationModel: true });
      r.askAnswer = () => '## Session Summary\nAsked in the conversation.\n[NEXT] keep going';
      await longAgentRun(r);
      assert.ok(r.asked.length >= 1, 'a checkpoint was summarized by the model');
      assert.equal(model.prompts, 0, 'never with a prompt of its own');
      for (const asked of r.asked) {
        const question = asked.messages.at(-1);
        assert.ok(question?.kind === 'engine' && question.message.id === SUMMARY_QUESTION_ID, 'the question comes last');
        const body = asked.messages.slice(0, -1);
        const previous = r.sent.filter((p) => startsWith(body, p.messages)).at(-1);
        assert.ok(previous, 'it starts with a request the conversation sent, message for message');
        assert.ok(
          body.length - previous.messages.length <= 3,
          `only what came since follows it (${body.length - previous.messages.length})`,
        );
        assert.deepEqual(asked.tools, previous.tools, 'with the same tools');
      }
      const session = r.preparedFor.at(-1)?.session;
      assert.ok(
        session?.checkpoints.some((c) => c.summarizedBy === 'wrapped-model'),
        'the answer became a checkpoint',
      );
    });

    it('is asked in a prompt of its own when the summarizer is another model', async () => {
      const r = new RelayRig({}, 24_000);
      const model = ownModel();
      r.turnOptions = async () => ({ summarizer: model, summarizerIsConversationModel: false });
      await longAgentRun(r);
      assert.equal(r.asked.length, 0);
      assert.ok(model.prompts >= 1);
    });
  });
});
