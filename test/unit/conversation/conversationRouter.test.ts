import * as assert from 'node:assert/strict';
import type { Routed } from '../../../src/engine/conversation/conversationRouter';
import type { ContextSession } from '../../../src/engine/session/contextSession';
import { messageText, type Message } from '../../../src/engine/types';
import { filler } from '../support/builders';
import {
  agentTurn,
  callTool,
  instructions,
  reply,
  resent,
  say,
  toolOutput,
  type Caller,
  type CallerMessage,
} from '../support/callerConversation';
import { routerRig, type RouterRig } from '../support/routerRig';

const route = (rig: RouterRig, conversation: readonly Caller[]): Promise<Routed<CallerMessage>> =>
  rig.router.route(conversation, rig.sessions, async (routed) => routed);

const texts = (messages: readonly Message[]) => messages.map(messageText);

describe('conversation router', () => {
  it('adds only the new messages when the caller re-sends the whole history as new objects', async () => {
    const rig = routerRig();
    const history = [say('Build the parser.'), ...agentTurn(1, 'ok')];
    const first = await route(rig, history);
    assert.equal(first.kind, 'started');
    assert.equal(first.added, 4);

    const next = [...resent(history), say('Now add tests.'), ...agentTurn(2, 'ok')];
    const second = await route(rig, next);
    assert.equal(second.kind, 'continued');
    assert.equal(second.session, first.session);
    assert.equal(second.added, 4);
    assert.equal(first.session.messages.length, 8);
    const archived = await first.session.readArchive();
    assert.equal(archived.length, 8, 'every message is archived once');
    assert.deepEqual(texts(first.session.messages).slice(0, 1), ['Build the parser.']);
  });

  it('adds nothing when the same history is sent again', async () => {
    const rig = routerRig();
    const history = [say('hello'), reply('hi')];
    const first = await route(rig, history);
    const again = await route(rig, resent(history));
    assert.equal(again.session, first.session);
    assert.equal(again.added, 0);
    assert.equal(first.session.messages.length, 2);
  });

  it('starts a separate session for a conversation that starts differently', async () => {
    const rig = routerRig();
    const a = await route(rig, [say('first task')]);
    const b = await route(rig, [say('second task')]);
    assert.notEqual(a.session.id, b.session.id);
    assert.equal(rig.sessions.created, 2);
  });

  it('forwards what no tier changed as the caller’s own message, and an offloaded result as the engine’s', async () => {
    const rig = routerRig({ offloadThresholdTokens: 1_000 });
    const big = filler(5_000);
    const conversation = [say('Read the log.'), callTool('c1', 'read_log', {}), toolOutput('c1', big)];
    const routed = await route(rig, conversation);
    const [ask, call, output] = routed.session.messages;
    assert.equal(routed.rawFor(ask), conversation[0].raw);
    assert.equal(routed.rawFor(call), conversation[1].raw);
    assert.equal(routed.rawFor(output), undefined, 'the result was offloaded: ctx sends its preview');
    assert.ok(!messageText(output).includes(big));

    // On the next request the caller's new objects are the ones forwarded.
    const again = resent(conversation);
    const next = await route(rig, [...again, reply('The log shows one error.')]);
    assert.equal(next.rawFor(routed.session.messages[0]), again[0].raw);
  });

  it('branches when an earlier message is edited: the branch shares the prefix, leaves the old tail behind and reads through to its archive', async () => {
    const rig = routerRig();
    const start = [say('Refactor the cache.'), ...agentTurn(1, 'ok')];
    const tail = [say('Use an LRU with 100 entries. [DECISION] LRU cache, 100 entries'), ...agentTurn(2, 'ok')];
    const parent = (await route(rig, [...start, ...tail])).session;

    const edited = [...resent(start), say('Use an LFU cache instead.')];
    const branched = await route(rig, edited);
    assert.equal(branched.kind, 'branched');
    assert.notEqual(branched.session.id, parent.id);
    assert.equal(branched.added, 1);
    assert.deepEqual(texts(branched.session.messages), [...texts(parent.messages.slice(0, 4)), 'Use an LFU cache instead.']);
    assert.equal(branched.session.state.parentSessionId, parent.id);
    assert.deepEqual(branched.session.warnings, [], 'the branch opens as written, with nothing to reconcile');
    const userMessages = branched.session.ledger.userMessages.map((u) => u.text);
    assert.deepEqual(userMessages, ['Refactor the cache.', 'Use an LFU cache instead.']);
    assert.deepEqual(branched.session.ledger.decisions, [], 'the decision came from the message the caller left behind');
    const archive = texts(await branched.session.readArchive());
    assert.ok(
      archive.some((t) => t.startsWith('Use an LRU')),
      'the abandoned message is still in the archive',
    );

    // The old conversation, re-sent in full, continues its own session.
    const back = await route(rig, [...resent(start), ...resent(tail), reply('done')]);
    assert.equal(back.session.id, parent.id);
    assert.equal(back.kind, 'continued');
  });

  describe('a branch of a compressed session', () => {
    const compressedSession = async () => {
      const rig = routerRig({ offloadThresholdTokens: 1_000 });
      const turns: Caller[] = [say('Start the migration.')];
      for (let i = 1; i <= 30; i++) turns.push(...agentTurn(i, filler(300, `step${i}`)));
      const parent = (await route(rig, turns)).session;
      await parent.prepare(8_000);
      assert.ok(parent.checkpoints.length > 0, 'a checkpoint was taken');
      const ids = (await parent.readArchive()).map((m) => m.id);
      return { rig, turns, parent, ids };
    };

    it('keeps the checkpoints that cover shared messages only, and the parent’s context for the rest', async () => {
      const { rig, turns, parent, ids } = await compressedSession();
      const covered = parent.checkpoints.flatMap((c) => c.messageIds);
      const keep = covered.length + 6;
      const branched = await route(rig, [...resent(turns.slice(0, keep)), say('Change of plan.')]);
      assert.equal(branched.kind, 'branched');
      assert.deepEqual(branched.session.checkpoints, parent.checkpoints);
      const live = new Map(parent.messages.map((m) => [m.id, m]));
      assert.deepEqual(
        branched.session.messages.slice(0, -1),
        ids.slice(covered.length, keep).map((id) => live.get(id)),
      );

      // A branch of that branch still finds the originals of everything its checkpoints cover and its context holds.
      const deeper = await route(rig, [...resent(turns.slice(0, keep - 1)), say('Another change.')]);
      assert.equal(deeper.kind, 'branched');
      assert.equal(deeper.session.state.parentSessionId, branched.session.id);
      assert.deepEqual(deeper.session.warnings, []);
      const reachable = new Set((await deeper.session.readArchive()).map((m) => m.id));
      const needed = [...deeper.session.checkpoints.flatMap((c) => c.messageIds), ...deeper.session.messages.map((m) => m.id)];
      assert.deepEqual(
        needed.filter((id) => !reachable.has(id)),
        [],
      );
    });

    it('gives back, from the archive, shared messages whose checkpoint also covered what the caller left behind', async () => {
      const { rig, turns, parent, ids } = await compressedSession();
      const first = parent.checkpoints[0].messageIds;
      const keep = Math.floor(first.length / 2);
      const archived = new Map((await parent.readArchive()).map((m) => [m.id, m]));
      const branched = await route(rig, [...resent(turns.slice(0, keep)), say('Change of plan.')]);
      assert.deepEqual(branched.session.checkpoints, []);
      assert.deepEqual(texts(branched.session.messages.slice(0, -1)), texts(ids.slice(0, keep).map((id) => archived.get(id) as Message)));
    });
  });

  it('takes the caller’s own summary in place of older turns as a rewrite: the session goes on, and what comes back is not added again', async () => {
    const rig = routerRig();
    const tail = agentTurn(3, 'exported 1,204 rows');
    const first = [
      say('Build the importer.'),
      ...agentTurn(1, 'ok'),
      say('[DECISION] Stream the input, never load it whole.'),
      ...agentTurn(2, 'ok'),
      say('Now the exporter.'),
      ...tail,
    ];
    const session = (await route(rig, first)).session;
    const before = texts(session.messages);
    const summaryText = 'Summary of the work so far: the importer streams its input; the exporter is being written.';
    const rewritten = await route(rig, [say(summaryText), ...resent(tail), say('Add a dry-run flag.')]);
    assert.equal(rewritten.kind, 'continued');
    assert.equal(rewritten.session, session);
    assert.equal(rewritten.added, 2);
    assert.deepEqual(texts(session.messages), [...before, summaryText, 'Add a dry-run flag.']);
    assert.deepEqual(
      session.ledger.decisions.map((d) => d.text),
      ['Stream the input, never load it whole.'],
    );
    assert.deepEqual(
      session.ledger.userMessages.map((u) => u.text),
      ['Build the importer.', '[DECISION] Stream the input, never load it whole.', 'Now the exporter.', 'Add a dry-run flag.'],
    );
  });

  it('starts its own session for a request that shares only the caller’s instructions with a known conversation', async () => {
    const rig = routerRig();
    const prompt = instructions('You are a coding agent.');
    const first = await route(rig, [prompt, say('Task A.'), ...agentTurn(1, 'ok')]);
    const other = await route(rig, [prompt, say('Task B.')]);
    assert.equal(other.kind, 'started');
    assert.notEqual(other.session.id, first.session.id);
    assert.equal(other.session.state.parentSessionId, undefined);
  });

  it('does not take a conversation that only repeats a plain message of another for a rewrite of it', async () => {
    const rig = routerRig();
    await route(rig, [say('Task A.'), ...agentTurn(1, 'ok')]);
    const other = await route(rig, [say('Task B.'), reply('Step 1 done.')]);
    assert.equal(other.kind, 'started');
    assert.equal(other.session.state.parentSessionId, undefined);
  });

  it('gives a branch of a branch the originals of what it shares, and a line of parents that leads to every archive', async () => {
    const rig = routerRig();
    const a = [say('one'), reply('1')];
    const root = (await route(rig, [...a, say('two'), reply('2')])).session;
    const b1 = (await route(rig, [...resent(a), say('two, edited'), reply('2b')])).session;
    const b2 = (await route(rig, [...resent(a), say('two, edited again')])).session;
    assert.equal(b1.state.parentSessionId, root.id);
    assert.equal(b2.state.parentSessionId, b1.id);
    const own = texts(await b2.readArchive());
    for (const t of ['one', '1', 'two, edited', '2b', 'two, edited again']) assert.ok(own.includes(t), `${t} is in the branch's archive`);
    const line: string[] = [];
    for (
      let s: ContextSession | undefined = b2;
      s;
      s = s.state.parentSessionId ? await rig.sessions.open(s.state.parentSessionId) : undefined
    ) {
      line.push(...texts(await s.readArchive()));
    }
    for (const t of ['two', '2']) assert.ok(line.includes(t), `${t} is reachable along the line of parents`);
  });

  it('recognises a conversation after a reload from its stored track, adding nothing twice', async () => {
    const rig = routerRig();
    const history = [say('Long task.'), ...agentTurn(1, 'ok'), ...agentTurn(2, 'ok')];
    const before = await route(rig, history);
    await before.session.save();

    const reloaded = routerRig({}, rig.store, rig.clock);
    const after = await route(reloaded, [...resent(history), say('Continue.')]);
    assert.equal(after.kind, 'continued');
    assert.equal(after.session.id, before.session.id);
    assert.equal(after.added, 1);
    assert.equal(reloaded.sessions.created, 0);
    assert.equal((await after.session.readArchive()).length, 8);
  });

  it('never adds a message twice when the stored track lost its end: it branches from what it can read', async () => {
    const rig = routerRig();
    const history = [say('Task.'), ...agentTurn(1, 'ok')];
    const first = await route(rig, history);
    const more = [...resent(history), say('Go on.'), ...agentTurn(2, 'ok')];
    await route(rig, more);
    const trackFile = `sessions/${first.session.id}/conversation.jsonl`;
    const lines = ((await rig.store.read(trackFile)) ?? '').split('\n');
    lines[5] = '{"v":1,"chain":'; // a write cut short
    await rig.store.write(trackFile, lines.join('\n'));

    const reloaded = routerRig({}, rig.store, rig.clock);
    const next = await route(reloaded, [...resent(more), say('Done?')]);
    assert.equal(next.kind, 'branched');
    assert.deepEqual(texts(next.session.messages), [...texts(first.session.messages), 'Done?']);
    const again = await route(reloaded, [...resent(more), say('Done?'), reply('Yes.')]);
    assert.equal(again.kind, 'continued', 'the branch continues normally');
    assert.equal(again.session.id, next.session.id);
  });

  it('starts over when the session of a known conversation was cleared', async () => {
    const rig = routerRig();
    const history = [say('Task.'), reply('ok')];
    const first = await route(rig, history);
    const reloaded = routerRig({}, rig.store, rig.clock);
    await rig.store.remove(`sessions/${first.session.id}`);
    const next = await route(reloaded, [...resent(history), say('more')]);
    assert.equal(next.kind, 'started');
    assert.notEqual(next.session.id, first.session.id);
    assert.equal(next.added, 3, 'the whole conversation joins the new session');
  });

  it('routes concurrent requests of one conversation one at a time, so nothing is added twice', async () => {
    const rig = routerRig();
    const history = [say('Go.'), ...agentTurn(1, 'ok')];
    await route(rig, history);
    const next = [...resent(history), say('Next.')];
    const [a, b] = await Promise.all([route(rig, next), route(rig, resent(next))]);
    assert.equal(a.session, b.session);
    assert.deepEqual([a.added, b.added], [1, 0]);
    assert.equal(a.session.messages.length, 5);
  });
});
