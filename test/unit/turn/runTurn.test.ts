import * as assert from 'node:assert/strict';
import { NOT_RUN_RESULT } from '../../../src/engine/turn/toolRound';
import { messageText, type Message, type ToolResultBlock } from '../../../src/engine/types';
import { assistant, filler, user } from '../support/builders';
import { callTool, say, TurnRig } from '../support/turnRig';

const roles = (messages: readonly Message[]) => messages.map((m) => m.role);
const resultsOf = (messages: readonly Message[]): ToolResultBlock[] =>
  messages.flatMap((m) => m.blocks.filter((b): b is ToolResultBlock => b.type === 'toolResult'));

describe('the turn every host runs', () => {
  describe('steps and events', () => {
    it('adds the caller’s message, prepares, sends, takes the answer in and measures, emitting each step in order', async () => {
      const t = new TurnRig().script([say('Done: '), say('the parser is fixed.')]);
      const outcome = await t.run();
      assert.deepEqual(t.kinds(), ['added', 'prepared', 'compressionEnded', 'added', 'answered', 'prepared', 'turnEnded']);
      assert.equal(outcome.end.kind, 'answered');
      assert.equal(outcome.rounds, 1);
      assert.deepEqual(roles(t.session.messages), ['user', 'assistant']);
      assert.equal(messageText(t.session.messages[1]), 'Done: the parser is fixed.');
      assert.deepEqual(t.forwarded, ['text:Done: ', 'text:the parser is fixed.']);
      const ended = t.events.at(-1);
      assert.ok(ended?.kind === 'turnEnded' && ended.outcome === outcome);
    });

    it('sends the prepared context, whose last message is the caller’s', async () => {
      const t = new TurnRig().script([say('ok')]);
      await t.run('What does the lexer do?');
      assert.equal(t.sent.length, 1);
      assert.equal(messageText(t.sent[0].at(-1) as Message), 'What does the lexer do?');
    });

    it('never sends a request over its budget: it compresses everything but the latest messages first', async () => {
      const t = new TurnRig({ budget: 2_000 }).script([say('ok')]);
      for (let i = 0; i < 6; i++) await t.session.add([user(filler(400, `topic${i}`)), assistant(filler(300, `answer${i}`))]);
      const outcome = await t.run();
      const before = t.events.slice(0, t.kinds().indexOf('answered')).filter((e) => e.kind === 'prepared');
      assert.equal(before.length, 2, 'the steps, then the compression');
      assert.ok(t.rig.logger.lines.some((l) => l.level === 'warn' && /over its budget after the tiers/.test(l.message)));
      assert.ok(before[1].kind === 'prepared' && outcome.prepared === before[1].prepared, 'what was sent is the compressed context');
    });

    it('says a compression is under way when Tier 3 reports progress, and that it ended', async () => {
      const t = new TurnRig({ budget: 2_000 }).script([say('ok')]);
      for (let i = 0; i < 6; i++) await t.session.add([user(filler(400, `topic${i}`)), assistant(filler(300, `answer${i}`))]);
      await t.run();
      const kinds = t.kinds();
      assert.ok(kinds.includes('compressing'), kinds.join(', '));
      assert.ok(kinds.indexOf('compressing') < kinds.indexOf('compressionEnded'));
    });

    it('without a model (a replay) ends once the context is prepared, and measures nothing after', async () => {
      const t = new TurnRig({ withModel: false });
      const outcome = await t.run();
      assert.deepEqual(t.kinds(), ['added', 'prepared', 'compressionEnded', 'turnEnded']);
      assert.equal(outcome.end.kind, 'answered');
      assert.equal(outcome.rounds, 0);
      assert.ok(outcome.prepared);
    });
  });

  describe('tool rounds', () => {
    it('runs the calls of an answer, adds their results to the session and prepares again before the next request', async () => {
      const t = new TurnRig().script([say('Reading.'), callTool('c1', 'read_file', { path: 'src/parser.ts' })], [say('Fixed.')]);
      const outcome = await t.run();
      assert.equal(outcome.end.kind, 'answered');
      assert.equal(outcome.rounds, 2);
      assert.equal(outcome.toolCalls, 1);
      assert.deepEqual(t.ran, ['c1']);
      assert.deepEqual(roles(t.session.messages), ['user', 'assistant', 'tool', 'assistant']);
      assert.deepEqual(roles(t.sent[1]), ['user', 'assistant', 'tool']);
      assert.equal(t.events.filter((e) => e.kind === 'prepared').length, 3, 'two requests prepared, and the measure at the end');
      assert.deepEqual(t.forwarded, ['text:Reading.', 'text:Fixed.'], 'a call the turn runs is never forwarded');
    });

    it('keeps its own exchange in the request only when the caller owns the conversation, each result cut to the room left', async () => {
      const t = new TurnRig({ answersJoin: 'request', budget: 1_000 }).script(
        [callTool('r1', 'ctx_recover', { query: 'port' })],
        [say('Port 8443.')],
      );
      t.toolOutput = () => ({ content: 'x'.repeat(20_000), isError: false });
      const outcome = await t.run();
      assert.equal(outcome.toolCalls, 1);
      assert.deepEqual(roles(t.session.messages), ['user'], 'neither the answer nor the lookup joins the session');
      const [result] = resultsOf(t.sent[1]);
      assert.ok(result.content.length < 5_000, `${result.content.length} characters`);
      assert.match(result.content, /cut to fit the context window\]$/);
      assert.equal(t.events.filter((e) => e.kind === 'prepared').length, 1, 'prepared once, and not measured after');
    });

    it('stops after the most rounds a turn may have, with every call of the last round answered', async () => {
      const t = new TurnRig({ maxRounds: 2 }).script([callTool('c1', 'run')], [callTool('c2', 'run')], [say('never asked')]);
      const outcome = await t.run();
      assert.equal(outcome.end.kind, 'roundLimit');
      assert.equal(outcome.rounds, 2);
      assert.equal(t.sent.length, 2);
      assert.deepEqual(
        resultsOf(t.session.messages).map((r) => r.callId),
        ['c1', 'c2'],
      );
    });

    it('forwards a call it does not run and ends with that answer, leaving out its own calls made next to it', async () => {
      const t = new TurnRig({ answersJoin: 'request', runs: (c) => c.name === 'ctx_recover' }).script([
        callTool('r1', 'ctx_recover'),
        callTool('c2', 'run_in_terminal'),
      ]);
      const outcome = await t.run();
      assert.equal(outcome.end.kind, 'answered');
      assert.deepEqual(t.forwarded, ['call:run_in_terminal']);
      assert.deepEqual(t.ran, []);
      assert.equal(t.sent.length, 1);
      assert.ok(t.rig.logger.lines.some((l) => /ctx_recover next to the caller's tools/.test(l.message)));
    });

    it('turns a tool that throws into an error result, and goes on', async () => {
      const t = new TurnRig().script([callTool('c1', 'flaky')], [say('Handled.')]);
      t.toolOutput = () => {
        throw new Error('disk on fire');
      };
      const outcome = await t.run();
      assert.equal(outcome.end.kind, 'answered');
      const [result] = resultsOf(t.session.messages);
      assert.equal(result.isError, true);
      assert.equal(result.content, 'flaky failed: disk on fire');
    });
  });

  describe('the cancellation rule', () => {
    it('takes the caller’s message in even when cancelled before the turn, then stops before preparing', async () => {
      const t = new TurnRig().script([say('never sent')]);
      t.cancellation.cancel();
      const outcome = await t.run();
      assert.deepEqual(outcome.end, { kind: 'cancelled', stage: 'prepare' });
      assert.deepEqual(roles(t.session.messages), ['user']);
      assert.equal(t.sent.length, 0);
      assert.deepEqual(t.kinds(), ['added', 'prepared', 'turnEnded'], 'added, then only the measure of the context as it stands');
    });

    it('does not send when the signal comes while the context is prepared', async () => {
      const t = new TurnRig().script([say('never sent')]);
      t.onBeforePrepare = () => t.cancellation.cancel();
      const outcome = await t.run();
      assert.deepEqual(outcome.end, { kind: 'cancelled', stage: 'send' });
      assert.equal(outcome.rounds, 0);
      assert.equal(t.sent.length, 0);
    });

    it('stops reading the answer at once, forwards nothing more, and keeps what was said', async () => {
      const t = new TurnRig().script([say('one '), say('two '), say('three')]);
      t.afterPart = (p) => p === 'text:one ' && t.cancellation.cancel();
      const outcome = await t.run();
      assert.deepEqual(outcome.end, { kind: 'cancelled', stage: 'send' });
      assert.deepEqual(t.forwarded, ['text:one ']);
      assert.deepEqual(roles(t.session.messages), ['user', 'assistant']);
      assert.equal(messageText(t.session.messages[1]), 'one ');
    });

    it('runs no further tool once the signal comes: each call not run says so, and no request follows', async () => {
      const t = new TurnRig().script([callTool('c1', 'first'), callTool('c2', 'second')], [say('never sent')]);
      t.onTool = () => t.cancellation.cancel();
      const outcome = await t.run();
      assert.deepEqual(outcome.end, { kind: 'cancelled', stage: 'tools' });
      assert.deepEqual(t.ran, ['c1']);
      const results = resultsOf(t.session.messages);
      assert.deepEqual(
        results.map((r) => r.callId),
        ['c1', 'c2'],
      );
      assert.equal(results[1].content, NOT_RUN_RESULT);
      assert.equal(t.sent.length, 1);
    });

    it('does not start the next round when the signal comes after the tools ran', async () => {
      const t = new TurnRig().script([callTool('c1', 'only')], [say('never sent')]);
      t.onTool = () => t.cancellation.cancel();
      const outcome = await t.run();
      assert.deepEqual(outcome.end, { kind: 'cancelled', stage: 'prepare' });
      assert.equal(t.sent.length, 1);
      assert.equal(outcome.toolCalls, 1);
    });

    it('counts a request that fails once the signal came as cancelled, not failed', async () => {
      const t = new TurnRig().script([say('part'), { kind: 'fail', error: new Error('the request was cancelled') }]);
      t.afterPart = () => t.cancellation.cancel();
      const outcome = await t.run();
      assert.equal(outcome.end.kind, 'cancelled');
    });
  });

  describe('a model that fails', () => {
    it('ends the turn with the model’s own error, returned and not thrown, after keeping what it had said', async () => {
      const quota = new Error('quota exceeded');
      const t = new TurnRig().script([say('Partial'), { kind: 'fail', error: quota }]);
      const outcome = await t.run();
      assert.ok(outcome.end.kind === 'failed' && outcome.end.error === quota);
      assert.deepEqual(t.forwarded, ['text:Partial']);
      assert.equal(messageText(t.session.messages[1]), 'Partial');
      assert.equal(t.kinds().at(-1), 'turnEnded');
    });
  });
});
