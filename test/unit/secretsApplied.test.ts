import * as assert from 'node:assert/strict';
import { NEVER_CANCELLED } from '../../src/engine/cancellation';
import { DEFAULT_OPTIONS } from '../../src/engine/options';
import { renderStatusReport } from '../../src/engine/activity/statusReport';
import { contextStatus } from '../../src/engine/activity/contextStatus';
import { DeterministicSummarizer } from '../../src/engine/summary/deterministicSummarizer';
import { maskingLogger } from '../../src/engine/text/maskingLogger';
import { assistant, call, filler, result, user } from './support/builders';
import { CONTEXT_MESSAGE_ID } from '../../src/engine/model/frozenContext';
import { messageText } from '../../src/engine/types';
import { RecordingLogger } from './support/fakes';
import { sessionRig } from './support/session';
import { countChars, historyRequest, recordTools } from './summary/summaryFakes';

/** A credential with GitHub's shape, made up for the tests. */
const TOKEN = 'ghp_R7kPq2ZxW9mLt4VbN8cYh3JsD6fGa1UeQ0oE';

describe('credentials in what ctx shows', () => {
  it('masks them in the preview of an offloaded result; the file and the archive keep the original', async () => {
    const rig = sessionRig();
    const content = `export GITHUB_TOKEN=${TOKEN}\n${filler(20_000)}`;
    await rig.session.add([call('c1', 'read_env', {}), result('c1', content)]);
    const shown = rig.session.messages.flatMap((m) => m.blocks).find((b) => b.type === 'toolResult');
    assert.ok(shown?.type === 'toolResult' && shown.content.includes('## Offloaded'));
    assert.ok(!shown.content.includes(TOKEN));
    assert.match(shown.content, /\[masked github pat\]/);
    assert.ok((await rig.store.read(rig.session.offloads[0].file))?.includes(TOKEN), 'the offloaded file keeps it');
    assert.ok(JSON.stringify(await rig.session.readArchive()).includes(TOKEN), 'the archive keeps it');
  });

  it('masks them in deterministic summaries', async () => {
    const summarizer = new DeterministicSummarizer({ countText: countChars, recordTools });
    const messages = [
      user(`Deploy with the token ${TOKEN}`, 'u1'),
      call('c1', 'run', { command: `curl -H "Authorization: Bearer ${TOKEN}" api` }),
      result('c1', 'ok'),
    ];
    const summary = await summarizer.summarize(historyRequest(messages, 1_200), NEVER_CANCELLED);
    assert.ok(summary.length > 0 && !summary.includes(TOKEN), summary);
  });

  it('masks them in the status report', async () => {
    const rig = sessionRig();
    await rig.session.add([user(`Use ${TOKEN} to push`)]);
    const prepared = await rig.session.prepare(100_000);
    const report = renderStatusReport(
      contextStatus({
        state: rig.session.state,
        tokens: prepared.tokens,
        budget: 100_000,
        estimated: false,
        thresholds: DEFAULT_OPTIONS.thresholds,
        warnings: [`A tool printed ${TOKEN}`],
        now: rig.clock.now(),
      }),
    );
    assert.ok(!report.includes(TOKEN), report);
    assert.match(report, /A tool printed \[masked github pat\]/);
  });

  it('masks them in log lines and logged errors', () => {
    const lines = new RecordingLogger();
    const logger = maskingLogger(lines);
    logger.warn(`could not push with ${TOKEN}`);
    logger.error(new Error(`401 for ${TOKEN}`));
    assert.ok(
      lines.lines.every((l) => !l.message.includes(TOKEN)),
      JSON.stringify(lines.lines),
    );
    assert.equal(lines.lines.length, 2);
  });
  it('masks them where the request is assembled, whatever added them to a part of the context after its own mask', async () => {
    const { session } = sessionRig();
    await session.add([user('Set up the deploy.'), assistant('Done: the deploy reads its token from the environment.')]);
    for (let i = 0; i < 6; i++) await session.add([user(`Step ${i}: ${filler(1_000, `step${i}`)}`), assistant(`Step ${i} is done.`)]);
    await session.compress(20_000);
    // A part of the context message written after the summarizer's own mask (as the recall check's facts are).
    const cell = (session as unknown as { parts: { cell: { state: { checkpoints: { summary: string }[] }; update(p: object): void } } })
      .parts.cell;
    const [first, ...rest] = cell.state.checkpoints;
    assert.ok(first, 'a checkpoint was made');
    cell.update({ checkpoints: [{ ...first, summary: `${first.summary}\n- Facts kept word for word: GITHUB_TOKEN=${TOKEN}` }, ...rest] });
    const prepared = await session.prepare(20_000);
    const context = prepared.messages.find((m) => m.id === CONTEXT_MESSAGE_ID);
    assert.ok(context && messageText(context).includes('Facts kept word for word'), 'the added line is in the request');
    assert.ok(!prepared.messages.some((m) => messageText(m).includes(TOKEN)), 'and its credential is masked');
  });
});
