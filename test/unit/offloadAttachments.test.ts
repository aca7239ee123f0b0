import * as assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS } from '../../src/engine/levels';
import { ATTACHED_CONTEXT } from '../../src/engine/tiers/offloadAttachments';
import { injectedTextBlock, message, textBlock, type Message } from '../../src/engine/types';
import { assistant, filler } from './support/builders';
import { addBenchmarkRounds, sessionRig, showsEarlierLines, storeWithFullOffloadedFolder } from './support/session';

const TYPED = 'Please tidy the parser module and keep its public names.';

/** A user message as an editor sends it: what the user typed, with context the editor attached around it. */
function withAttachments(id: string, ...attached: string[]): Message {
  return message(id, 'user', [...attached.map((a) => injectedTextBlock(`<attachment>\n${a}\n</attachment>`)), textBlock(TYPED)]);
}

const liveMessage = (rig: ReturnType<typeof sessionRig>, id: string) => rig.session.messages.find((m) => m.id === id);

describe('attached context that keeps the context CRITICAL', () => {
  it('goes to a file with a preview and the path, while what the user typed stays as it was', async () => {
    const rig = sessionRig();
    const attachment = filler(10_000, 'parser');
    await rig.session.add([withAttachments('u1', attachment)]);
    const prepared = await rig.session.prepare(6_000);

    assert.ok(prepared.usage < DEFAULT_THRESHOLDS.redAt, `usage ${prepared.usage}`);
    const live = liveMessage(rig, 'u1');
    assert.ok(live);
    assert.deepEqual(live.blocks.at(-1), textBlock(TYPED));
    const preview = live.blocks[0];
    assert.ok(preview.type === 'text' && preview.injected === true);
    assert.match(preview.text, /^## Offloaded: attached context of a user message\n\*\*Path:\*\*/);
    const [record] = rig.session.offloads;
    assert.equal(record.toolName, ATTACHED_CONTEXT);
    assert.equal(await rig.store.read(record.file), `<attachment>\n${attachment}\n</attachment>`);
    assert.ok(prepared.events.some((e) => e.kind === 'offload' && e.file === record.file));
    const archived = (await rig.session.readArchive()).find((m) => m.id === 'u1');
    assert.deepEqual(archived, withAttachments('u1', attachment));
  });

  it('goes largest first, and only as much as brings the context below RED', async () => {
    const rig = sessionRig();
    const large = filler(9_000, 'schema');
    const small = filler(800, 'router');
    await rig.session.add([withAttachments('u1', small, large)]);
    const prepared = await rig.session.prepare(6_000);

    assert.ok(prepared.usage < DEFAULT_THRESHOLDS.redAt);
    assert.equal(rig.session.offloads.length, 1);
    assert.equal(await rig.store.read(rig.session.offloads[0].file), `<attachment>\n${large}\n</attachment>`);
    assert.deepEqual(liveMessage(rig, 'u1')?.blocks[0], injectedTextBlock(`<attachment>\n${small}\n</attachment>`));
  });

  it('gives the earlier lines their room back in the request whose rebase took it, once the attachment has gone to a file', async () => {
    const rig = sessionRig();
    const budget = 6_000;
    await addBenchmarkRounds(rig, 14, budget);
    assert.ok(showsEarlierLines(await rig.session.prepare(budget)), 'a rebase gave the earlier lines room');

    await rig.session.add([withAttachments('u1', filler(9_000, 'lexer'))]);
    const prepared = await rig.session.prepare(budget);
    assert.ok(
      rig.session.offloads.some((o) => o.toolName === ATTACHED_CONTEXT),
      'the attachment went to a file',
    );
    assert.ok(prepared.usage < DEFAULT_THRESHOLDS.redAt, `usage ${prepared.usage}`);
    assert.ok(
      rig.session.state.earlierRoom > 0 && showsEarlierLines(prepared),
      'the earlier lines are back, in the request that rewrote the context',
    );
  });

  it('is left alone below CRITICAL', async () => {
    const rig = sessionRig();
    const attached = withAttachments('u1', filler(3_000));
    await rig.session.add([attached, assistant('Looking at it.')]);
    await rig.session.prepare(100_000);
    assert.equal(rig.session.offloads.length, 0);
    assert.deepEqual(liveMessage(rig, 'u1'), attached);
  });

  it('never takes what the user typed: the context stays CRITICAL and a fresh session is offered while the request fits', async () => {
    const rig = sessionRig();
    const typed = message('u1', 'user', [textBlock(filler(5_200, 'pasted'))]);
    await rig.session.add([typed]);
    const prepared = await rig.session.prepare(6_000);
    assert.equal(rig.session.offloads.length, 0);
    assert.deepEqual(liveMessage(rig, 'u1'), typed);
    assert.equal(prepared.level, 'CRITICAL');
    assert.ok(prepared.critical);
  });

  it('stays in the context when its file cannot be written, and the user is told', async () => {
    const rig = sessionRig({}, storeWithFullOffloadedFolder());
    const attached = withAttachments('u1', filler(10_000));
    await rig.session.add([attached]);
    await rig.session.prepare(6_000);
    assert.equal(rig.session.offloads.length, 0);
    assert.deepEqual(liveMessage(rig, 'u1'), attached);
    assert.ok(
      rig.session.warnings.some((w) => /attached context of message u1 could not be written.*ENOSPC.*stays in the context/.test(w.message)),
    );
  });
});
