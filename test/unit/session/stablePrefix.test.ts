import * as assert from 'node:assert/strict';
import type { ContextSession } from '../../../src/engine/session/contextSession';
import type { PreparedContext } from '../../../src/engine/model/preparedContext';
import type { Summarizer, SummaryRequest } from '../../../src/engine/summary/summarizer';
import { messageText } from '../../../src/engine/types';
import { assistant, call, filler, result, user } from '../support/builders';
import { sessionRig } from '../support/session';

const BUDGET = 20_000;

/** One round of an agent's work: a call, its result and a reply of about `tokens` tokens. */
async function round(session: ContextSession, i: number, tokens = 400): Promise<PreparedContext> {
  await session.add([
    call(`c${i}`, 'run_in_terminal', { command: `npm run step-${i}` }, `Running step ${i}.`),
    result(`c${i}`, `step ${i} passed\n${filler(tokens)}`, false, 'run_in_terminal'),
    assistant(`Step ${i} is done: module${i} builds.`),
  ]);
  const prepared = await session.prepare(BUDGET);
  await session.recordSent(prepared.messages);
  return prepared;
}

/** A model that answers at once: its checkpoints are ready before the next request. */
class PromptModel implements Summarizer {
  readonly name = 'prompt-model';
  readonly maxInputTokens = 1_000_000;
  async summarize(request: SummaryRequest): Promise<string> {
    return `## Session Summary\nThe build log was read, ${request.messages.length} messages of it.`;
  }
}

/** True when `later` starts with every message of `earlier`, the same objects or the same content. */
function startsWith(later: PreparedContext, earlier: PreparedContext): boolean {
  return earlier.messages.every((m, i) => later.messages[i] === m || JSON.stringify(later.messages[i]) === JSON.stringify(m));
}

describe('a context the prompt cache can keep: append-only between rebases', () => {
  it('sends each request as the one before plus the new messages until a checkpoint, though the tools teach the ledger', async () => {
    const { session } = sessionRig();
    await session.add([user('Build every module and tell me which fail. [GOAL] every module builds')]);
    let previous = await session.prepare(BUDGET);
    let appended = 0;
    let rebases = 0;
    for (let i = 1; i <= 40; i++) {
      const next = await round(session, i, 900);
      if (next.checkpoints === previous.checkpoints) {
        assert.ok(startsWith(next, previous), `request ${i} repeats the one before it`);
        appended++;
      } else {
        rebases++;
      }
      previous = next;
    }
    assert.ok(rebases >= 2, `checkpoints were made (${rebases})`);
    assert.ok(appended >= 30, `the other requests only grew (${appended})`);
    assert.ok(session.ledger.tools.files.length + session.ledger.tools.commands.length > 0, 'the ledger learned from the tool calls');
    const tally = session.state.promptCache;
    assert.ok(
      tally !== undefined && tally.reusedTokens / tally.sentTokens > 0.85,
      `most of what was sent was reused: ${JSON.stringify(tally)}`,
    );
    assert.equal(tally.rebases, rebases, 'a rebase is counted for each checkpoint, and only then');
    assert.equal(tally.summaryRequests, session.state.checkpointsMade, 'one summary request a checkpoint');
  });

  it('shows a goal set with /goal in the next request: what the user changes is a rebase', async () => {
    const { session } = sessionRig();
    await session.add([user('Start.')]);
    for (let i = 1; i <= 3; i++) await round(session, i);
    const before = await session.prepare(BUDGET);
    await session.addGoal('ship the release notes');
    const after = await session.prepare(BUDGET);
    assert.ok(!messageText(before.messages[0]).includes('ship the release notes'));
    assert.ok(messageText(after.messages[0]).includes('ship the release notes'), 'the goal is in the context message at once');
  });

  it('keeps a goal set by a marker in the live messages until the next rebase, where the ledger shows it', async () => {
    const { session } = sessionRig();
    await session.add([user('Start. [GOAL] every module builds')]);
    const first = await session.prepare(BUDGET);
    await session.add([user('[GOAL] the changelog lists every module'), assistant('Noted.')]);
    const next = await session.prepare(BUDGET);
    assert.ok(startsWith(next, first), 'the marker changed the ledger, not what was sent');
    assert.ok(
      next.messages.some((m) => messageText(m).includes('[GOAL] the changelog lists every module')),
      'it is in the live messages',
    );
    assert.ok(session.ledger.goals.some((g) => g.text === 'the changelog lists every module'));
  });

  it('waits with tier 2 and the watermark for the next rebase, unless one clears a quarter of the budget', async () => {
    const { session, files } = sessionRig();
    await session.add([user('Write the files.')]);
    for (let i = 1; i <= 4; i++) {
      const content = `export const value${i} = ${i};\n${filler(300, 'code')}`;
      files.files.set(`src/file${i}.ts`, content);
      await session.add([call(`w${i}`, 'write_file', { path: `src/file${i}.ts`, content }), result(`w${i}`, 'ok', false, 'write_file')]);
    }
    let before = await session.prepare(BUDGET);
    for (let i = 1; before.usage < 0.55; i++) before = await round(session, i, 500);
    assert.ok(before.usage >= 0.5 && before.level !== 'RED', `above tier 2's 50%, below the trigger: ${before.usage}`);
    const again = await round(session, 99, 50);
    assert.equal(session.state.truncations.length, 0, 'a few small inputs do not pay for a rebase: they wait');
    assert.ok(startsWith(again, before));
  });

  it("makes each checkpoint with the model's summary in one rebase, though the one prepared ahead fell short of the trigger", async () => {
    const { session } = sessionRig();
    const model = new PromptModel();
    const budget = 12_000;
    await session.add([user('Read every part of the nightly build log, one call per part, and sum it up.')]);
    let rewrites = 0;
    const upgrades: string[] = [];
    for (let i = 1; i <= 60; i++) {
      const prepared = await session.prepare(budget, { summarizer: model });
      const reuse = await session.recordSent(prepared.messages);
      const names = prepared.events.map((e) => e.name);
      if (reuse.invalidatedTokens > 0) {
        rewrites++;
        assert.ok(names.includes('checkpoint-created'), `request ${i} rewrote what was sent without a checkpoint: ${names.join(', ')}`);
      }
      upgrades.push(...names.filter((n) => n === 'checkpoint-upgraded'));
      await session.whenPreparationSettled();
      // Lines of a log, each a few tokens more than the last: the context grows by a few hundred tokens a round.
      const log = Array.from({ length: 40 }, (_, k) => `line ${k} compiled src/module${k}.ts in ${k * 7} ms`).join('\n');
      await session.add([call(`p${i}`, 'read_log', { part: i }, `Reading part ${i}.`), result(`p${i}`, log, false, 'read_log')]);
    }
    assert.ok(session.state.checkpointsMade >= 2, `checkpoints were made (${session.state.checkpointsMade})`);
    assert.equal(rewrites, session.state.checkpointsMade, 'one rebase a checkpoint');
    assert.deepEqual(upgrades, [], "no deterministic summary was sent to be replaced by the model's at a second rebase");
    assert.ok(
      session.checkpoints.some((c) => c.summarizedBy === model.name),
      "the latest checkpoints are the model's",
    );
  });

  it("sends the context message unchanged when the budget moves a little (a caller's prompt for its own summary), and fits it to another window", async () => {
    const { session } = sessionRig();
    await session.add([user('Build every module and tell me which fail. [GOAL] every module builds')]);
    let previous = await session.prepare(BUDGET);
    for (let i = 1; previous.checkpoints === 0; i++) previous = await round(session, i, 900);
    // A command the ledger learns after the checkpoint: it enters the context message at the next rebase.
    previous = await round(session, 100, 300);
    const next = await session.prepare(BUDGET - 600);
    assert.ok(startsWith(next, previous), 'the request 3% smaller repeats the one before it');
    assert.equal((await session.recordSent(next.messages)).invalidatedTokens, 0);
    await session.prepare(BUDGET * 2);
    assert.equal(session.state.frozenContext?.budget, BUDGET * 2, 'a window twice as large has the context message fitted to it');
  });
});
