import * as assert from 'node:assert/strict';
import { NEVER_CANCELLED } from '../../../src/engine/cancellation';
import type { SpanSummaryRequest } from '../../../src/engine/checkpoints/checkpointing';
import { CheckpointSummarizers } from '../../../src/engine/checkpoints/checkpointSummarizers';
import { SpanOriginals } from '../../../src/engine/checkpoints/spanOriginals';
import type { ArchivedMessages } from '../../../src/engine/model/archivedMessages';
import type { OffloadRecord } from '../../../src/engine/model/offloadRecord';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import type { Summarizer, SummaryRequest } from '../../../src/engine/summary/summarizer';
import type { Message } from '../../../src/engine/types';
import { FakeClock } from '../support/fakes';
import { assistant, call, result, user } from '../support/builders';
import { countChars, guide, REFERENCES } from '../summary/summaryFakes';

/** A session of `rounds` rounds: a request, a plan, a command that fails then passes, a decision. */
function session(rounds: number): Message[] {
  return Array.from({ length: rounds }, (_, n) => [
    user(`Please make step ${n} work.`, `u${n}`),
    assistant(`Now let me run step ${n}.\n[DECISION] keep step ${n} small`, `a${n}`),
    { ...call(`c${n}`, 'Bash', { command: `./step-${n}.sh` }), id: `c${n}m` },
    { ...result(`c${n}`, n % 3 === 0 ? `Error: step ${n} failed (exit code 1)` : `step ${n} ok`, n % 3 === 0), id: `r${n}m` },
  ]).flat();
}

function archiveOf(messages: readonly Message[]): ArchivedMessages {
  const byId = new Map(messages.map((m, i) => [m.id, { m, at: i + 1 }]));
  return {
    count: messages.length,
    idAt: (index) => messages[index]?.id,
    read: (from, to) => Promise.resolve(messages.slice(from, to)),
    byId: (id) => Promise.resolve(byId.get(id)?.m),
    byIds: (ids) => Promise.resolve(ids.map((id) => byId.get(id)?.m)),
    position: (id) => byId.get(id)?.at ?? 0,
  };
}

const summarizers = () => new CheckpointSummarizers({ clock: new FakeClock(), countText: countChars, timeoutMs: () => 1000 });

/** The merged span of `messages`, read as aging reads it: its first half once, then the whole, which reads only the rest. */
async function mergedRequest(messages: readonly Message[]): Promise<SpanSummaryRequest> {
  const spans = new SpanOriginals();
  const archived = archiveOf(messages);
  const none: OffloadRecord[] = [];
  const ids = messages.map((m) => m.id);
  await spans.read(ids.slice(0, ids.length / 2), archived, none);
  const span = await spans.read(ids, archived, none);
  return {
    kind: 'history',
    span,
    guide: guide('Make every step work'),
    targetTokens: 400,
    references: REFERENCES,
    facts: extractFacts(messages),
  };
}

function wholeRequest(request: SpanSummaryRequest, messages: readonly Message[]): SummaryRequest {
  const { span: _span, ...brief } = request;
  return { ...brief, messages };
}

describe('checkpoint summarizers: a merged span summarized from what was read of it', () => {
  it('writes the deterministic summary of a merged span as reading its messages whole writes it', async () => {
    const messages = session(12);
    const request = await mergedRequest(messages);
    const written = await summarizers().floor(request, NEVER_CANCELLED);
    const whole = await summarizers().deterministic.summarize(wholeRequest(request, messages), NEVER_CANCELLED);
    assert.equal(written.text, whole);
    assert.equal(written.summarizedBy, 'deterministic');
    assert.match(written.text, /step-0\.sh|step 0/);
  });

  it('gives a model the span read back from the archive, and the floor written from what was read when the model fails', async () => {
    const messages = session(12);
    const request = await mergedRequest(messages);
    const seen: (readonly Message[])[] = [];
    const failing: Summarizer = {
      name: 'model',
      maxInputTokens: 1_000_000,
      summarize: (asked) => {
        seen.push(asked.messages);
        return Promise.reject(new Error('the model is down'));
      },
    };
    const written = await summarizers().with(failing)(request, NEVER_CANCELLED);
    assert.deepEqual(
      seen[0]?.map((m) => m.id),
      messages.map((m) => m.id),
    );
    assert.equal(written.summarizedBy, 'deterministic');
    assert.match(written.fallbackReason ?? '', /the model is down/);
    assert.equal(written.text, (await summarizers().floor(request, NEVER_CANCELLED)).text);
  });
});
