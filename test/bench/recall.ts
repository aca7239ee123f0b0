/**
 * The recall check's cost on a large span: extracting the facts of the largest dev transcript and
 * checking each against the span's summary and a search of the archive, against writing the
 * deterministic summary of the same span (given the same facts) in the same run. The index the
 * search runs on is built beforehand: in a session it already exists.
 */
import { NEVER_CANCELLED } from '../../src/engine/cancellation';
import { targetTokensFor } from '../../src/engine/checkpoints/aging';
import { guideFrom } from '../../src/engine/summary/summaryGuide';
import { EMPTY_LEDGER } from '../../src/engine/model/ledgerTypes';
import { recordToolActivity } from '../../src/engine/ledger/toolRecord';
import { DEFAULT_OPTIONS } from '../../src/engine/options';
import { extractFacts } from '../../src/engine/recall/extractFacts';
import { checkRecall, SEARCH_TOP, type RecallSearch } from '../../src/engine/recall/recallCheck';
import { RecoveryIndex } from '../../src/engine/recovery/recoveryIndex';
import { MemoryStore } from '../../src/engine/storage/memoryStore';
import { DeterministicSummarizer } from '../../src/engine/summary/deterministicSummarizer';
import type { SummaryRequest } from '../../src/engine/summary/summarizer';
import { TokenCounter } from '../../src/engine/tokens/counter';
import type { LocalTokenizer } from '../../src/engine/tokens/localTokenizer';
import type { Message } from '../../src/engine/types';
import { median, type BenchRow } from './benchRow';
import { timedAsync } from './replayFixtures';

const GROUP = 'checkpoints';

/** The text the search indexes for a message: its text, its tool inputs and its results. */
function searchableText(m: Message): string {
  return m.blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'toolCall' ? JSON.stringify(b.input) : b.content)).join('\n');
}

/** A recovery index over the messages, as the archive's, and the search port the check takes. */
async function archiveSearch(messages: readonly Message[]): Promise<RecallSearch> {
  const index = await RecoveryIndex.build(new MemoryStore(), 'bench-recall');
  index.addDocuments(
    'archive',
    messages.map((m) => ({ ref: `archive#${m.id}`, text: searchableText(m), messageId: m.id, role: m.role })),
  );
  const texts = new Map(messages.map((m) => [m.id, searchableText(m)]));
  return async (query, top) =>
    (await index.search(query, { top })).map((hit) => ({
      text: (hit.messageId !== undefined ? texts.get(hit.messageId) : undefined) ?? hit.excerpt,
    }));
}

/** Extraction and the recall check of the whole transcript, against its deterministic summary. */
export async function benchRecall(
  messages: readonly Message[],
  tokenizer: LocalTokenizer,
  repetitions: number,
  name: string,
): Promise<BenchRow> {
  const counter = new TokenCounter(tokenizer);
  const countText = (t: string) => counter.countText(t);
  const floor = new DeterministicSummarizer({ countText, recordTools: (m) => recordToolActivity(m) });
  const search = await archiveSearch(messages);
  const request = (facts: SummaryRequest['facts']): SummaryRequest => ({
    kind: 'history',
    messages,
    guide: guideFrom(EMPTY_LEDGER),
    targetTokens: targetTokensFor(0, DEFAULT_OPTIONS.checkpointTokens),
    facts,
    besideLedger: true,
    references: {
      archive: 'archive.jsonl',
      offloaded: 'offloaded',
      firstMessageId: messages[0]?.id ?? '',
      lastMessageId: messages[messages.length - 1]?.id ?? '',
    },
  });
  const checks: number[] = [];
  const summaries: number[] = [];
  let figures = { extracted: 0, kept: 0, found: 0, putBack: 0, lost: 0 };
  for (let r = 0; r < repetitions; r++) {
    const facts = extractFacts(messages);
    const summary = await timedAsync(() => floor.summarize(request(facts), NEVER_CANCELLED));
    summaries.push(summary.ms);
    const check = await timedAsync(async () =>
      checkRecall({ facts: extractFacts(messages), contextText: summary.result, search, searchTop: SEARCH_TOP }),
    );
    checks.push(check.ms);
    figures = check.result.figures;
  }
  const ms = median(checks);
  const baseline = median(summaries);
  return {
    group: GROUP,
    name: `fact extraction and recall check of a whole transcript, ${name} (${messages.length} messages)`,
    value: ms,
    unit: 'ms',
    baseline,
    ratio: ms / baseline,
    note:
      `${figures.extracted} facts: ${figures.kept} kept in the summary, ${figures.found} found by search (top ${SEARCH_TOP}), ${figures.lost} missing; ` +
      `baseline: the deterministic summary of the same span given the same facts (target ${targetTokensFor(0, DEFAULT_OPTIONS.checkpointTokens)} tokens); ` +
      `ratio: check time / baseline, lower is better; the search index is built beforehand; median of ${repetitions}`,
  };
}
