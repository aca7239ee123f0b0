import * as assert from 'node:assert/strict';

import { RequestRenderer } from '../../../src/engine/session/requestRenderer';
import { DEFAULT_OPTIONS } from '../../../src/engine/options';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import type { EncodingName, Tokenizer } from '../../../src/engine/ports';
import { assistant, call, result, user } from '../support/builders';
import { sessionRig } from '../support/session';

/** Counts like the test tokenizer, and tallies the characters it was asked to count. */
class TallyTokenizer implements Tokenizer {
  readonly encoding: EncodingName = 'o200k_base';
  ready = true;
  chars = 0;
  async whenReady(): Promise<void> {}
  async countMany(texts: readonly string[]): Promise<number[]> {
    for (const t of texts) this.chars += t.length;
    return texts.map((t) => Math.ceil(t.length / 4));
  }
}

describe("the ledger's line counts", () => {
  it('counts a long ledger once: the next render counts only its new lines, though the ledger is counted section by section', async () => {
    const rig = sessionRig();
    await rig.session.add([user('Tidy up every module of the inventory service and keep the tests green.')]);
    for (let i = 0; i < 60; i++) {
      await rig.session.add([call(`r${i}`, 'read_file', { path: `src/inventory/part${i}.rs` }), result(`r${i}`, `fn part${i}() {}`)]);
      await rig.session.add([call(`t${i}`, 'run_command', { command: `cargo test part${i}` }), result(`t${i}`, `test part${i} ... ok`)]);
    }
    // A watermark puts the whole ledger (files, commands, requests) in the context message; a few facts put back make a small section of their own.
    const facts = [1, 2, 3].map((n) => ({
      kind: 'outcome' as const,
      key: `part${n} passes`,
      line: `part${n} passes after the rename`,
      messageId: `t${n}`,
      score: 0.5,
      at: n,
    }));
    const before = rig.session.state;
    const state = { ...before, watermark: before.active[1].id, ledger: { ...before.ledger, facts } };
    const tally = new TallyTokenizer();
    const renderer = new RequestRenderer(new TokenCounter(tally), DEFAULT_OPTIONS);
    const first = await renderer.render(state, 200_000);
    const ledgerChars = first.sections.reduce((n, s) => n + s.text.length, 0);
    assert.ok(ledgerChars > 3_000, `a long ledger (${ledgerChars} characters)`);
    const countedFirst = tally.chars;
    const later = { ...state, active: [...state.active, user('Now the billing module, the same way.')] };
    await renderer.render({ ...later, ledger: { ...later.ledger } }, 200_000);
    const countedAgain = tally.chars - countedFirst;
    assert.ok(countedAgain < countedFirst / 5, `counted again: ${countedAgain} characters, first render ${countedFirst}`);
  });

  it('renders the ledger again only when the ledger or what of the live messages it shows changed', async () => {
    const rig = sessionRig();
    await rig.session.add([user('Port the scheduler to the new queue API.', 'u-first')]);
    await rig.session.add([call('r1', 'read_file', { path: 'src/scheduler.rs' }), result('r1', 'fn schedule() {}')]);
    const before = rig.session.state;
    const state = { ...before, watermark: before.active[1].id };
    const renderer = new RequestRenderer(new TokenCounter(new TallyTokenizer()), DEFAULT_OPTIONS);
    const ledgerSection = async (s: typeof state) => (await renderer.render(s, 200_000)).sections.find((x) => x.part === 'ledgerHeading');
    const first = await ledgerSection(state);
    assert.ok(first, 'the ledger is shown');
    const withReply = { ...state, active: [...state.active, assistant('Reading the queue module next.')] };
    assert.equal(await ledgerSection(withReply), first, 'a reply that changes nothing the ledger shows reuses its render');
    const firstGone = { ...withReply, active: withReply.active.filter((m) => m.id !== 'u-first') };
    const afterLeaving = await ledgerSection(firstGone);
    assert.notEqual(afterLeaving, first, 'a user message that left the live context is shown: the ledger is rendered again');
  });

  it('sends the same list, measured once, for states that change neither the context message nor the live messages', async () => {
    const rig = sessionRig();
    await rig.session.add([user('Port the scheduler to the new queue API.')]);
    await rig.session.add([call('r1', 'read_file', { path: 'src/scheduler.rs' }), result('r1', 'fn schedule() {}')]);
    const state = { ...rig.session.state, watermark: rig.session.state.active[1].id };
    const renderer = new RequestRenderer(new TokenCounter(new TallyTokenizer()), DEFAULT_OPTIONS);
    const first = await renderer.render(state, 200_000);
    const again = await renderer.render({ ...state, autoSnapshotArmed: !state.autoSnapshotArmed }, 200_000);
    assert.equal(again.messages, first.messages);
    assert.equal(again.measured, first.measured);
    const grown = await renderer.render({ ...state, active: [...state.active, assistant('Reading the queue module next.')] }, 200_000);
    assert.notEqual(grown.messages, first.messages);
    assert.equal(grown.messages.length, first.messages.length + 1);
    assert.equal(grown.measured.messageTokens.length, grown.messages.length);
  });
});
