import * as assert from 'node:assert/strict';
import { CancellationSource, CancelledError, NEVER_CANCELLED } from '../../../src/engine/cancellation';
import { isCheckpoint } from '../../../src/engine/model/checkpointGuard';
import { EMPTY_LEDGER } from '../../../src/engine/model/ledgerTypes';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import type { Fact } from '../../../src/engine/model/fact';
import { putBackIntoSummary, putBackMissing, PUT_BACK_HEADING } from '../../../src/engine/recall/putBack';
import { checkRecall, type RecallSearch } from '../../../src/engine/recall/recallCheck';
import { FOUND_WEIGHT, isRecallFigures, recallConfidence, sumRecallFigures } from '../../../src/engine/model/recallFigures';
import { DeterministicSummarizer } from '../../../src/engine/summary/deterministicSummarizer';
import { sampleCheckpoint } from '../support/ledgerBuilders';
import { countChars, historyRequest } from '../summary/summaryFakes';
import { devopsSession, notebookSession } from './recallSessions';

const fact = (kind: Fact['kind'], key: string, score = 0.6, more: Partial<Fact> = {}): Fact => ({
  kind,
  key,
  text: key,
  messageId: `m-${key.length}`,
  score,
  ...more,
});

/** A search over a few archived texts: every text holding a word of the query, in the order given. */
function searchOver(texts: readonly string[]): RecallSearch {
  return async (query, top) => {
    const words = query
      .toLowerCase()
      .split(/\W+/)
      .filter((w) => w.length > 3);
    return texts
      .filter((t) => words.some((w) => t.toLowerCase().includes(w)))
      .slice(0, top)
      .map((text) => ({ text }));
  };
}

describe('recall check', () => {
  it('counts a fact as kept when the context holds it, whatever the spacing, case or emphasis', async () => {
    const check = await checkRecall({
      facts: [fact('decision', "I'll store each page under `feed:<page>` instead of SQLite.")],
      contextText: "## Checkpoint\n1. i'll store each page under **feed:<page>**\n   instead of sqlite.",
    });
    assert.deepEqual(
      check.results.map((r) => r.status),
      ['kept'],
    );
  });

  it('counts a fact as found when a search of the archive returns it among the first three', async () => {
    const archive = ['unrelated lock notes', 'more lock notes', 'lock: Error acquiring the state lock', 'older text'];
    const check = await checkRecall({
      facts: [fact('error', 'Error acquiring the state lock')],
      contextText: 'nothing about it',
      search: searchOver(archive),
    });
    assert.equal(check.results[0].status, 'found');
  });

  it('counts a fact as missing when the search only returns it fourth', async () => {
    const archive = ['state notes', 'lock notes', 'acquiring notes', 'Error acquiring the state lock'];
    const check = await checkRecall({
      facts: [fact('error', 'Error acquiring the state lock')],
      contextText: '',
      search: searchOver(archive),
    });
    assert.equal(check.results[0].status, 'missing');
    assert.deepEqual(check.figures, { extracted: 1, kept: 0, found: 0, putBack: 0, lost: 1 });
  });

  it('treats a failing search as not found and still answers for every fact', async () => {
    const check = await checkRecall({
      facts: [fact('outcome', 'validation_auc: 0.8731'), fact('artifact', 'analysis.ipynb')],
      contextText: 'analysis.ipynb',
      search: async () => {
        throw new Error('index unavailable');
      },
    });
    assert.deepEqual(
      check.results.map((r) => r.status),
      ['missing', 'kept'],
    );
  });

  it('rejects with CancelledError when cancelled', async () => {
    const source = new CancellationSource();
    source.cancel();
    await assert.rejects(
      checkRecall({ facts: [fact('outcome', 'x ok done')], contextText: '', cancellation: source.token }),
      CancelledError,
    );
  });

  it('catches a model summary that drops a fact the span established', async () => {
    const messages = devopsSession();
    const facts = extractFacts(messages);
    const modelSummary = '## Session Summary\n### Key Decisions\n1. Unlocked the Terraform state and applied the staging config.';
    const check = await checkRecall({ facts, contextText: modelSummary });
    const missing = check.missing.map((f) => f.key);
    assert.ok(missing.includes('Error: Error acquiring the state lock'), missing.join(' | '));
    assert.ok(missing.some((k) => k.startsWith('The lock is stale from a crashed CI job')));
  });

  it("finds the facts of the deterministic summary in it: it keeps the span's best facts verbatim", async () => {
    const messages = notebookSession();
    const facts = extractFacts(messages);
    const summarizer = new DeterministicSummarizer({ countText: countChars, recordTools: (m) => recordToolActivity(m) });
    const summary = await summarizer.summarize({ ...historyRequest(messages, 1200), facts, besideLedger: true }, NEVER_CANCELLED);
    const check = await checkRecall({ facts, contextText: summary });
    // The user's requests are left to the ledger beside the summary, which holds every user message.
    const best = facts
      .filter((f) => f.kind !== 'request')
      .sort((a, b) => b.score - a.score)
      .slice(0, 5);
    for (const f of best) assert.equal(check.results.find((r) => r.fact === f)?.status, 'kept', f.key);
  });

  describe('putting back', () => {
    it('puts a dropped fact back into the summary when its target leaves room, before the recovery references', async () => {
      const summary =
        '## Session Summary\n### Key Decisions\n1. Unlocked the state.\n\n### Recovery References\n- Search them with ctx_recover.';
      const dropped = fact('error', 'Error: Error acquiring the state lock', 0.8, {
        resolution: { resolved: true, by: '`terraform force-unlock` succeeded' },
      });
      const put = await putBackIntoSummary(summary, [dropped], 200, countChars);
      assert.deepEqual(put.placed, [dropped]);
      assert.match(
        put.summary,
        /### Facts kept word for word\n- Error: Error acquiring the state lock — resolved: `terraform force-unlock` succeeded\n\n### Recovery References/,
      );
      assert.ok((await countChars(put.summary)) <= 200);
      const again = await checkRecall({ facts: [dropped], contextText: put.summary });
      assert.equal(again.results[0].status, 'kept');
    });

    it('puts the most important facts in first and leaves the rest when the target is reached', async () => {
      const summary = '## Session Summary\n### Key Decisions\n1. Something.';
      const low = fact('identifier', 'someLowValueName', 0.3);
      const high = fact('outcome', 'validation_auc: 0.8731', 0.9);
      const target = (await countChars(summary)) + Math.ceil((PUT_BACK_HEADING.length + 60) / 4);
      const put = await putBackIntoSummary(summary, [low, high], target, countChars);
      assert.deepEqual(put.placed, [high]);
      assert.deepEqual(put.rest, [low]);
    });

    it("puts what does not fit the summary into the ledger's facts, and counts every fact once", async () => {
      const summary = '## Session Summary\n### Key Decisions\n1. Something long enough to fill the target.';
      const facts = [
        fact('outcome', 'validation_auc: 0.8731', 0.9),
        fact('artifact', 'data/churn.parquet', 0.5),
        fact('request', 'Keep the notebook small.', 0.7),
      ];
      const check = await checkRecall({ facts, contextText: 'Keep the notebook small.' });
      const put = await putBackMissing({
        check,
        summary,
        targetTokens: await countChars(summary),
        countText: countChars,
        ledger: EMPTY_LEDGER,
        at: 5,
      });
      assert.equal(put.summary, summary, 'no room in the summary');
      assert.deepEqual(
        (put.ledger.facts ?? []).map((f) => f.line),
        ['Outcome: validation_auc: 0.8731', 'File: data/churn.parquet'],
      );
      assert.deepEqual(put.figures, { extracted: 3, kept: 1, found: 0, putBack: 2, lost: 0 });
    });

    it('fills the room left in the summary with facts only found by search, after the missing ones, and counts them as put back', async () => {
      const summary = '## Session Summary\n### Key Decisions\n1. Unlocked the state.';
      const missing = fact('outcome', 'Apply complete! Resources: 2 added', 0.4);
      const found = fact('error', 'Error acquiring the state lock', 0.9);
      const check = await checkRecall({
        facts: [found, missing],
        contextText: summary,
        search: searchOver(['Error acquiring the state lock']),
      });
      assert.deepEqual(
        check.results.map((r) => r.status),
        ['found', 'missing'],
      );
      const roomy = await putBackMissing({ check, summary, targetTokens: 200, countText: countChars, ledger: EMPTY_LEDGER, at: 1 });
      assert.match(roomy.summary, /- Outcome: Apply complete! Resources: 2 added\n- Error: Error acquiring the state lock$/);
      assert.deepEqual(roomy.figures, { extracted: 2, kept: 0, found: 0, putBack: 2, lost: 0 });
      assert.equal(roomy.ledger, EMPTY_LEDGER, 'the ledger takes only missing facts');

      const tight = (await countChars(summary)) + Math.ceil((PUT_BACK_HEADING.length + 70) / 4);
      const first = await putBackMissing({ check, summary, targetTokens: tight, countText: countChars, ledger: EMPTY_LEDGER, at: 1 });
      assert.ok(first.summary.includes('Apply complete!') && !first.summary.includes('state lock'), 'the missing fact comes first');

      const only = await putBackMissing({
        check,
        summary,
        targetTokens: 200,
        countText: countChars,
        ledger: EMPTY_LEDGER,
        at: 1,
        fillWithFound: false,
      });
      assert.ok(!only.summary.includes('state lock'));
      assert.deepEqual(only.figures, { extracted: 2, kept: 0, found: 1, putBack: 1, lost: 0 });
    });
  });

  describe('figures', () => {
    it('gives a confidence of 1 with nothing extracted or everything kept, and weighs found facts less', () => {
      assert.equal(recallConfidence({ extracted: 0, kept: 0, found: 0, putBack: 0, lost: 0 }), 1);
      assert.equal(recallConfidence({ extracted: 4, kept: 3, found: 0, putBack: 1, lost: 0 }), 1);
      assert.equal(recallConfidence({ extracted: 4, kept: 2, found: 2, putBack: 0, lost: 0 }), (2 + 2 * FOUND_WEIGHT) / 4);
      assert.equal(recallConfidence({ extracted: 4, kept: 0, found: 0, putBack: 0, lost: 4 }), 0);
    });

    it('adds up the figures of several checks', () => {
      const sum = sumRecallFigures([
        { extracted: 3, kept: 1, found: 1, putBack: 1, lost: 0 },
        { extracted: 2, kept: 0, found: 0, putBack: 0, lost: 2 },
      ]);
      assert.deepEqual(sum, { extracted: 5, kept: 1, found: 1, putBack: 1, lost: 2 });
    });

    it('are stored with a checkpoint and checked when read back', () => {
      const recall = { extracted: 10, kept: 6, found: 2, putBack: 1, lost: 1 };
      assert.ok(isRecallFigures(recall));
      assert.ok(isCheckpoint({ ...sampleCheckpoint(), recall }));
      assert.ok(isCheckpoint(sampleCheckpoint()), 'a checkpoint without figures is still valid');
      assert.ok(!isCheckpoint({ ...sampleCheckpoint(), recall: { ...recall, lost: -1 } }));
      assert.ok(!isCheckpoint({ ...sampleCheckpoint(), recall: { extracted: 1 } }));
    });
  });
});
