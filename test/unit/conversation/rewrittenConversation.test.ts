import * as assert from 'node:assert/strict';
import type { Checkpoint } from '../../../src/engine/model/checkpoint';
import type { Routed } from '../../../src/engine/conversation/conversationRouter';
import type { ContextSession } from '../../../src/engine/session/contextSession';
import { messageText, type Message } from '../../../src/engine/types';
import { filler } from '../support/builders';
import { callTool, instructions, reply, resent, say, toolOutput, type Caller, type CallerMessage } from '../support/callerConversation';
import { routerRig, type RouterRig } from '../support/routerRig';

/**
 * Conversations shaped like those of Copilot's agent: its system prompt, the user's request, tool
 * rounds (a call, its result), and every few rounds its own compaction, after which it resends its
 * system prompt, its summary as user text and the last two rounds verbatim, and goes on from there.
 */
const route = (rig: RouterRig, conversation: readonly Caller[]): Promise<Routed<CallerMessage>> =>
  rig.router.route(conversation, rig.sessions, async (routed) => routed);

const SYSTEM = instructions('You are an expert AI programming assistant, working with a user in the VS Code editor. Use the tools.');
const REQUEST = 'Move the billing service onto the new queue and keep its tests green.';

const round = (n: number, conversation = 'billing'): Caller[] => [
  callTool(`call_${conversation}_${n}`, 'run_in_terminal', { command: `npm test -- ${conversation}/part${n}` }),
  toolOutput(`call_${conversation}_${n}`, filler(300, `${conversation}${n}`)),
];
const rounds = (from: number, to: number, conversation?: string): Caller[] =>
  Array.from({ length: to - from + 1 }, (_, i) => round(from + i, conversation)).flat();

/** A budget under which the turn's context is compressed into checkpoints. */
const BUDGET = 1_500;

const SUMMARY_1 = 'Summary of the conversation so far: the queue client is written; parts 1 to 10 were tested.';
const SUMMARY_2 = 'Summary of the conversation so far: the billing service uses the new queue; parts 1 to 16 pass.';

/** Sends the requests of rounds `from`..`to`, each re-sending `head` and every round before it; returns the last routing. */
async function play(rig: RouterRig, head: readonly Caller[], from: number, to: number, log: Routed<CallerMessage>[]): Promise<Caller[]> {
  let history = [...head];
  for (let n = from; n <= to; n++) {
    history = [...resent(history), ...round(n)];
    log.push(await route(rig, history));
  }
  return history;
}

/** One turn of 20 rounds with two compactions, after rounds 10 and 16; the session is compressed along the way. */
async function copilotTurn(rig: RouterRig) {
  const log: Routed<CallerMessage>[] = [];
  await play(rig, [SYSTEM, say(REQUEST)], 1, 10, log);
  const session = log[0].session;
  await session.prepare(BUDGET);
  const checkpointsBefore = [...session.checkpoints];
  await play(rig, [SYSTEM, say(SUMMARY_1), ...rounds(9, 10)], 11, 16, log);
  await session.prepare(BUDGET);
  const checkpointsBetween = [...session.checkpoints];
  await play(rig, [SYSTEM, say(SUMMARY_2), ...rounds(15, 16)], 17, 20, log);
  return { log, session, checkpointsBefore, checkpointsBetween };
}

const coveredBy = (checkpoints: readonly Checkpoint[]) => new Set(checkpoints.flatMap((c) => c.messageIds));
const texts = (messages: readonly Message[]) => messages.map(messageText);
const isCallerText = (m: Message) => m.blocks.every((b) => b.type === 'text' && b.injected === true);

describe('a conversation its caller rewrites with its own summary', () => {
  it('stays one session for the whole turn across two compactions', async () => {
    const rig = routerRig({ offloadThresholdTokens: 1_000 });
    const { log, session } = await copilotTurn(rig);
    assert.equal(rig.sessions.created, 1);
    assert.ok(log.every((r) => r.session === session));
    assert.deepEqual(
      log.map((r) => r.kind),
      ['started', ...Array<string>(19).fill('continued')],
    );
    assert.deepEqual(
      log.map((r) => r.added),
      [4, ...Array<number>(9).fill(2), 3, ...Array<number>(5).fill(2), 3, 2, 2, 2],
      'each request adds its new round, and the summary with the first round after it',
    );
  });

  it('archives every message once: the whole history, both summaries included', async () => {
    const rig = routerRig({ offloadThresholdTokens: 1_000 });
    const { session } = await copilotTurn(rig);
    const archived = await session.readArchive();
    const ids = archived.map((m) => m.id);
    assert.equal(new Set(ids).size, ids.length, 'no message twice');
    const calls = archived.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'toolCall' ? [b.id] : [])));
    assert.deepEqual(
      calls,
      Array.from({ length: 20 }, (_, i) => `call_billing_${i + 1}`),
    );
    const all = texts(archived);
    for (const t of [REQUEST, SUMMARY_1, SUMMARY_2]) assert.equal(all.filter((x) => x === t).length, 1, `${t} is archived once`);
    assert.equal(archived.length, 1 + 1 + 40 + 2);
  });

  it('records the summary as the caller’s text: the title, the intent and the user’s messages stay the user’s request', async () => {
    const rig = routerRig({ offloadThresholdTokens: 1_000 });
    const { session } = await copilotTurn(rig);
    const summaries = (await session.readArchive()).filter((m) => [SUMMARY_1, SUMMARY_2].includes(messageText(m)));
    assert.equal(summaries.length, 2);
    assert.ok(summaries.every(isCallerText), 'the summaries are recorded as text the user did not write');
    assert.equal(session.title, REQUEST);
    assert.equal(session.ledger.intent?.text, REQUEST);
    assert.deepEqual(
      session.ledger.userMessages.map((u) => u.text),
      [REQUEST],
    );
  });

  it('carries the checkpoints and the ledger on across the compactions', async () => {
    const rig = routerRig({ offloadThresholdTokens: 1_000 });
    const { session, checkpointsBefore, checkpointsBetween } = await copilotTurn(rig);
    assert.ok(checkpointsBefore.length > 0, 'a checkpoint was taken before the first compaction');
    const before = coveredBy(checkpointsBefore);
    const between = coveredBy(checkpointsBetween);
    await session.prepare(BUDGET);
    const after = coveredBy(session.checkpoints);
    assert.ok(
      [...before].every((id) => between.has(id)) && between.size > before.size,
      'the checkpoints after the first compaction cover more',
    );
    assert.ok(
      [...between].every((id) => after.has(id)) && after.size > between.size,
      'the checkpoints after the second compaction cover more',
    );
    assert.ok(
      checkpointsBefore.every((c) => session.checkpoints.some((d) => d.id === c.id)),
      'the first checkpoints are still there',
    );
    const commands = session.ledger.tools.commands.map((c) => c.command);
    for (const n of [1, 10, 11, 20]) {
      assert.ok(commands.includes(`npm test -- billing/part${n}`), `the command of round ${n} is in the ledger`);
    }
  });

  it('gives a different conversation with the same system prompt its own session', async () => {
    const rig = routerRig({ offloadThresholdTokens: 1_000 });
    const { session } = await copilotTurn(rig);
    const other = await route(rig, [SYSTEM, say('Write the release notes for 2.3.'), ...rounds(1, 2, 'notes')]);
    assert.notEqual(other.kind, 'continued');
    assert.notEqual(other.session.id, session.id);
    assert.deepEqual(
      other.session.ledger.userMessages.map((u) => u.text),
      ['Write the release notes for 2.3.'],
    );
    assert.ok(!texts(other.session.messages).some((t) => t.includes('billing')), 'nothing of the first conversation is in its context');

    // Its own compaction, with a summary of its own, continues it, not the first conversation.
    const rewritten = await route(rig, [SYSTEM, say('Summary: the notes list the fixes.'), ...rounds(2, 2, 'notes'), ...round(3, 'notes')]);
    assert.equal(rewritten.kind, 'continued');
    assert.equal(rewritten.session, other.session);
  });

  it('does not take the same system prompt and summary-like text without a resent tool round for the same conversation', async () => {
    const rig = routerRig({ offloadThresholdTokens: 1_000 });
    const { session } = await copilotTurn(rig);
    const other = await route(rig, [SYSTEM, say(SUMMARY_1), ...rounds(1, 1, 'elsewhere')]);
    assert.notEqual(other.session.id, session.id);
    assert.notEqual(other.kind, 'continued');
  });

  it('recognises the same first request with a resent message after the caller’s summary', async () => {
    const rig = routerRig();
    const history = [say('Plan the launch.'), say('Draft the announcement.'), say('Now the FAQ.')];
    const first = await route(rig, history);
    const kept = await route(rig, [
      say('Plan the launch.'),
      say('Summary: an announcement was drafted.'),
      ...resent(history.slice(2)),
      say('And the blog post.'),
    ]);
    assert.equal(kept.kind, 'continued');
    assert.equal(kept.session, first.session);
    assert.deepEqual(texts(kept.session.messages).slice(-2), ['Summary: an announcement was drafted.', 'And the blog post.']);
    assert.ok(isCallerText(kept.session.messages[kept.session.messages.length - 2]));
  });

  it('takes an edited message followed by a reply that happens to repeat an old one for an edit, not a rewrite', async () => {
    const rig = routerRig();
    const first = await route(rig, [say('Deploy the site.'), reply('OK.'), say('Use staging.'), reply('Done.')]);
    const edited = await route(rig, [say('Deploy the site.'), reply('OK.'), say('Use production.'), reply('Done.')]);
    assert.equal(edited.kind, 'branched');
    assert.notEqual(edited.session, first.session);
    assert.deepEqual(texts(edited.session.messages), ['Deploy the site.', 'OK.', 'Use production.', 'Done.']);
  });

  it('adds nothing as the caller’s text when, after a compaction, the old history comes back with tool rounds the session holds', async () => {
    const rig = routerRig({ offloadThresholdTokens: 1_000 });
    const log: Routed<CallerMessage>[] = [];
    const old = await play(rig, [SYSTEM, say(REQUEST)], 1, 10, log);
    await play(rig, [SYSTEM, say(SUMMARY_1), ...rounds(9, 10)], 11, 11, log);
    const session = log[0].session;
    const count = (await session.readArchive()).length;
    await route(rig, [...resent(old), ...round(11)]);
    assert.equal((await session.readArchive()).length, count, 'nothing was added to the session twice');
    assert.ok(
      !session.messages.some((m) => isCallerText(m) && messageText(m) === REQUEST),
      'the user’s request is never the caller’s text',
    );
  });

  it('continues the conversation that holds the latest resent round when a more recent branch shares older ones', async () => {
    const rig = routerRig();
    const log: Routed<CallerMessage>[] = [];
    const head = [SYSTEM, say(REQUEST)];
    await play(rig, head, 1, 6, log);
    const session = log[0].session;
    const branch = await route(rig, [...head, ...rounds(1, 4), say('Keep the old queue for refunds.')]);
    assert.equal(branch.kind, 'branched');
    const rewritten = await route(rig, [SYSTEM, say(SUMMARY_1), ...rounds(3, 7)]);
    assert.equal(rewritten.session, session);
    assert.equal(rewritten.added, 3, 'the summary and round 7');
  });

  it('does not add again a resent round whose tool result the caller shortened', async () => {
    const rig = routerRig({ offloadThresholdTokens: 1_000 });
    const log: Routed<CallerMessage>[] = [];
    await play(rig, [SYSTEM, say(REQUEST)], 1, 10, log);
    const session = log[0].session;
    const shortened = toolOutput('call_billing_9', 'part 9: 12 tests passed');
    const next = await route(rig, [SYSTEM, say(SUMMARY_1), round(9)[0], shortened, ...rounds(10, 11)]);
    assert.equal(next.kind, 'continued');
    assert.equal(next.session, session);
    assert.equal(next.added, 3, 'the summary and round 11');
    const results = (await session.readArchive()).flatMap((m) => m.blocks.flatMap((b) => (b.type === 'toolResult' ? [b.callId] : [])));
    assert.equal(results.filter((id) => id === 'call_billing_9').length, 1);
    const again = await route(rig, [SYSTEM, say(SUMMARY_1), round(9)[0], shortened, ...rounds(10, 12)]);
    assert.equal(again.added, 2, 'the rewritten conversation continues by prefix');
  });

  describe('after a reload', () => {
    const saved = async (rig: RouterRig, session: ContextSession) => {
      await session.save();
      return routerRig({ offloadThresholdTokens: 1_000 }, rig.store, rig.clock);
    };

    it('continues the same session with the rewritten conversation’s next request', async () => {
      const rig = routerRig({ offloadThresholdTokens: 1_000 });
      const log: Routed<CallerMessage>[] = [];
      await play(rig, [SYSTEM, say(REQUEST)], 1, 10, log);
      const history = await play(rig, [SYSTEM, say(SUMMARY_1), ...rounds(9, 10)], 11, 12, log);
      const session = log[0].session;
      const reloaded = await saved(rig, session);
      const next = await route(reloaded, [...resent(history), ...round(13)]);
      assert.equal(next.kind, 'continued');
      assert.equal(next.session.id, session.id);
      assert.equal(next.added, 2);
      assert.equal(reloaded.sessions.created, 0);
      assert.equal((await next.session.readArchive()).length, 1 + 1 + 26 + 1);
    });

    it('recognises a compaction that happens right after the reload, also when the caller sends its prompt apart', async () => {
      const rig = routerRig({ offloadThresholdTokens: 1_000 });
      const log: Routed<CallerMessage>[] = [];
      await play(rig, [say(REQUEST)], 1, 10, log);
      const session = log[0].session;
      const reloaded = await saved(rig, session);
      const next = await route(reloaded, [say(SUMMARY_1), ...rounds(9, 11)]);
      assert.equal(next.kind, 'continued');
      assert.equal(next.session.id, session.id);
      assert.equal(reloaded.sessions.created, 0);
      assert.equal(next.added, 3);
      assert.equal(next.session.title, REQUEST);
    });
  });
});
