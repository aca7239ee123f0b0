/**
 * Replays every dev transcript of every set as `replay` does (a FileStore on disk, the default
 * options, the first session of each file) at a budget of half the transcript's tokens, and asks what a compressed context is for: does the
 * final context end under the budget, and does it still hold the early facts (probes.dev.json),
 * verbatim in what the last request sends (ctx's context message with the ledger and the
 * checkpoints, then the live messages) or one search away? Two baselines are measured in the same
 * run: dropping the oldest messages until the context fits the same budget, and, for sessions
 * that an agent compacted itself, what its own summary and the messages after it kept.
 * Run alone with `node out/test/bench/replay.js [--quick]`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_ANSWER_RESERVE_TOKENS } from '../../src/engine/budget';
import { CLAUDE_CODE_COMPACTION_MARKER } from '../../src/cli/import/claudeCodeConversation';
import { CODEX_COMPACTION_MARKER } from '../../src/cli/import/codexRollout';
import { COPILOT_SUMMARY_MARKER } from '../../src/cli/import/copilotChat';
import type { RecoveryHit } from '../../src/engine/model/recoveryTypes';
import { RecoveryIndex } from '../../src/engine/recovery/recoveryIndex';
import { renderContext } from '../../src/cli/replay/renderContext';
import { replayTranscript } from '../../src/cli/replay/replayTranscript';
import { FileStore } from '../../src/engine/storage/fileStore';
import type { TokenCounter } from '../../src/engine/tokens/counter';
import type { Message } from '../../src/engine/types';
import { readProbes, type Probe } from '../unit/import/realTranscripts';
import { contextHolds, rankOfProbe } from '../unit/cli/probeHits';
import { median, type BenchRow } from './benchRow';
import { dropOldestUntilFits } from './dropOldest';
import { probeKindRows, type ProbeOutcome } from './probeKinds';
import { devTranscriptFiles, importForReplay, readyCounter, shortName } from './replayFixtures';
import { AGE_LABELS } from '../../src/engine/checkpoints/aging';
import type { Checkpoint } from '../../src/engine/model/checkpoint';
import { extractFacts } from '../../src/engine/recall/extractFacts';
import { holdsKey, matchForm } from '../../src/engine/facts/factKey';
import { sumRecallFigures, type RecallFigures } from '../../src/engine/model/recallFigures';
import { runAlone } from './runAlone';

const GROUP = 'replay';
/** A probe counts as found by search when a hit among the first this many leads to it. */
const SEARCH_TOP = 3;
/** The quick run replays the smallest transcripts only. */
const QUICK_TRANSCRIPTS = 4;
/** Share of the probes the final contexts must hold verbatim. */
const PROBES_KEPT_GOAL = 0.9;
/** How each agent's own compaction summary starts once imported. */
const NATIVE_SUMMARY_MARKERS = [CLAUDE_CODE_COMPACTION_MARKER, CODEX_COMPACTION_MARKER, COPILOT_SUMMARY_MARKER];

interface ProbeScore {
  readonly total: number;
  readonly inContext: number;
  readonly bySearch: number;
  readonly inContextOrSearch: number;
  readonly dropOldest: number;
}

interface TranscriptResult {
  readonly file: string;
  readonly row: BenchRow;
  readonly probes: ProbeScore;
  readonly outcomes: readonly ProbeOutcome[];
  /** The final context's share of the budget. */
  readonly finalUsage: number;
  /** Probes the final context lost, as `kind "probe"`. */
  readonly lost: readonly string[];
  readonly ms: number;
  readonly inputTokens: number;
  readonly finalTokens: number;
  readonly budget: number;
  readonly peakTokens: number;
  readonly checkpoints: number;
  readonly checkpointsMade: number;
  readonly native?: { readonly tokens: number; readonly found: number; readonly ours: number; readonly total: number };
  /** Every recall check of the replay, added up. */
  readonly recall: RecallFigures;
  /** The smallest checkpoint that has aged, and how many of its span's facts its summary still holds. */
  readonly smallestAged?: { readonly tokens: number; readonly age: string; readonly held: number; readonly facts: number };
}

/** The prepare budget is half the input; `--budget` is that plus the answer reserve the host keeps. */
function maxInputTokensFor(inputTokens: number): number {
  return Math.ceil(inputTokens / 2) + DEFAULT_ANSWER_RESERVE_TOKENS;
}

async function replayOne(file: string, counter: TokenCounter, repetitions: number, probes: readonly Probe[]): Promise<TranscriptResult> {
  const imported = importForReplay(file);
  const inputTokens = (await counter.measure(imported.messages)).total;
  const maxInputTokens = maxInputTokensFor(inputTokens);
  const times: number[] = [];
  let last: Awaited<ReturnType<typeof replayTranscript>> | undefined;
  let store: FileStore | undefined;
  const folders: string[] = [];
  for (let i = 0; i < repetitions; i++) {
    folders.push(fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-bench-replay-')));
    store = new FileStore(folders[i]);
    last?.session.dispose();
    last = await replayTranscript(imported, { maxInputTokens, store, counter, stopwatch: { now: () => performance.now() } });
    times.push(last.figures.ms);
  }
  if (!last || !store) throw new Error('no repetition ran');
  const { figures, session, final } = last;
  const context = renderContext(final?.messages ?? [], { tokens: figures.finalTokens, budget: figures.budget, level: figures.finalLevel });
  const dropped = await dropOldestUntilFits(imported.messages, figures.budget, counter);
  const droppedContext = renderContext(dropped.messages);
  const index = await RecoveryIndex.build(store, session.id);
  const archive = await session.readArchive();

  let inContext = 0;
  let bySearch = 0;
  let either = 0;
  let dropOldest = 0;
  const lost: string[] = [];
  const outcomes: ProbeOutcome[] = [];
  for (const probe of probes) {
    const verbatim = contextHolds(context, probe.probe);
    if (!verbatim) lost.push(`${probe.kind} "${probe.probe.length > 50 ? `${probe.probe.slice(0, 47)}…` : probe.probe}"`);
    const hits: RecoveryHit[] = await index.search(probe.probe, { top: SEARCH_TOP });
    const found = (await rankOfProbe(hits, probe.probe, store, archive)) !== undefined;
    const kept = contextHolds(droppedContext, probe.probe);
    outcomes.push({ kind: probe.kind, verbatim, found, dropOldest: kept });
    inContext += verbatim ? 1 : 0;
    bySearch += found ? 1 : 0;
    either += verbatim || found ? 1 : 0;
    dropOldest += kept ? 1 : 0;
  }
  const recall = sumRecallFigures(session.state.history.flatMap((e) => (e.recall ? [e.recall] : [])));
  const smallestAged = smallestAgedCheckpoint(session.checkpoints, archive);
  session.dispose();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  const ms = median(times);
  const native = await nativeCompaction(file, probes, counter, context);
  const n = probes.length;
  const fits = figures.finalTokens <= figures.budget;
  const row: BenchRow = {
    group: GROUP,
    name: `${shortName(file)} at half its tokens`,
    value: figures.finalTokens,
    unit: 'tokens',
    baseline: figures.inputTokens,
    ratio: figures.inputTokens / Math.max(1, figures.finalTokens),
    goal: '≤ budget',
    met: fits,
    note:
      `budget ${count(figures.budget)}: final ${count(figures.finalTokens)} ${fits ? 'under' : 'OVER'} the budget ` +
      `(${(figures.finalUsage * 100).toFixed(1)}%, ${figures.finalLevel}), ` +
      `peak ${count(figures.peakTokens)}${figures.peakTokens > figures.budget ? ' (over the budget)' : ''}; ` +
      `${figures.checkpoints} checkpoints, ${figures.checkpointsMade} checkpoints made; ` +
      `${figures.offloaded} offloaded, ${figures.truncated} truncated; ${ms.toFixed(0)} ms; ` +
      `probes in the final context ${inContext}/${n} ` +
      `(drop-oldest ${dropOldest}/${n}${native ? `, the agent's own compaction ${native.found}/${n}` : ''}), ` +
      `search top ${SEARCH_TOP} ${bySearch}/${n}; ` +
      `recall checks: ${recallWords(recall)}; ` +
      `baseline: the input (${count(figures.inputTokens)} tokens); ratio: input / final`,
  };
  return {
    file,
    row,
    probes: { total: n, inContext, bySearch, inContextOrSearch: either, dropOldest },
    outcomes,
    finalUsage: figures.finalUsage,
    lost,
    ms,
    inputTokens: figures.inputTokens,
    finalTokens: figures.finalTokens,
    budget: figures.budget,
    peakTokens: figures.peakTokens,
    checkpoints: figures.checkpoints,
    checkpointsMade: figures.checkpointsMade,
    native,
    recall,
    ...(smallestAged ? { smallestAged } : {}),
  };
}

function recallWords(r: RecallFigures): string {
  return `${r.extracted} facts extracted, ${r.kept} kept in the context, ${r.found} found by search, ${r.putBack} put back, ${r.lost} lost`;
}

/** The smallest aged checkpoint of the final context and how many of its span's facts its summary still holds verbatim. */
function smallestAgedCheckpoint(checkpoints: readonly Checkpoint[], archive: readonly Message[]): TranscriptResult['smallestAged'] {
  const aged = checkpoints.filter((c) => c.age > 0).sort((a, b) => a.currentTokens - b.currentTokens)[0];
  if (!aged) return undefined;
  const byId = new Map(archive.map((m) => [m.id, m]));
  const span = aged.messageIds.flatMap((id) => byId.get(id) ?? []);
  const facts = extractFacts(span);
  const summary = matchForm(aged.summary);
  return {
    tokens: aged.currentTokens,
    age: AGE_LABELS[aged.age],
    held: facts.filter((f) => holdsKey(summary, f.key)).length,
    facts: facts.length,
  };
}

/**
 * What the agent itself kept at the end of a session it compacted: its summary and every message
 * after it. Undefined for sessions without a native compaction.
 */
async function nativeCompaction(
  file: string,
  probes: readonly Probe[],
  counter: TokenCounter,
  ours: string,
): Promise<TranscriptResult['native']> {
  const messages = importForReplay(file, true).messages;
  const at = messages.findIndex((m: Message) =>
    m.blocks.some((b) => b.type === 'text' && NATIVE_SUMMARY_MARKERS.some((marker) => b.text.startsWith(marker))),
  );
  if (at === -1) return undefined;
  const kept = messages.slice(at);
  const text = renderContext(kept);
  return {
    tokens: (await counter.measure(kept)).total,
    found: probes.filter((p) => contextHolds(text, p.probe)).length,
    ours: probes.filter((p) => contextHolds(ours, p.probe)).length,
    total: probes.length,
  };
}

const share = (part: number, whole: number) => (whole > 0 ? (100 * part) / whole : NaN);
const count = (x: number) => Math.round(x).toLocaleString('en-US');
/** A replay whose peak went over the budget: "name (12,000 of 10,000)". */
const peakWords = (r: TranscriptResult) => `${shortName(r.file)} (${count(r.peakTokens)} of ${count(r.budget)})`;
/** A replay's smallest aged checkpoint: its size and the facts of its span it still holds. */
const smallestAgedWords = (r: TranscriptResult) =>
  `${shortName(r.file)} ${r.smallestAged?.tokens} tokens, ${r.smallestAged?.held}/${r.smallestAged?.facts} facts`;

/** Replays every dev transcript (the smallest few with `quick`) and compares with the baselines. */
export async function benchReplay(quick = false): Promise<BenchRow[]> {
  const counter = await readyCounter();
  const allProbes = readProbes();
  const files = quick ? devTranscriptFiles().slice(0, QUICK_TRANSCRIPTS) : devTranscriptFiles();
  const results: TranscriptResult[] = [];
  for (const file of files) {
    results.push(
      await replayOne(
        file,
        counter,
        quick ? 1 : 3,
        allProbes.filter((p) => p.file === file),
      ),
    );
  }

  const sum = (pick: (r: TranscriptResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  const probes = sum((r) => r.probes.total);
  const kept = sum((r) => r.probes.inContext);
  const dropOldest = share(
    sum((r) => r.probes.dropOldest),
    probes,
  );
  const inContext = share(kept, probes);
  const recoverable = share(
    sum((r) => r.probes.inContextOrSearch),
    probes,
  );
  const reductions = results.map((r) => 100 * (1 - r.finalTokens / r.inputTokens));
  const scope = `${results.length} transcripts, ${probes} probes`;
  const under = results.filter((r) => r.finalTokens <= r.budget);
  const over = results.filter((r) => r.finalTokens > r.budget).map((r) => shortName(r.file));
  const peakOver = results.filter((r) => r.peakTokens > r.budget);
  const lost = results.flatMap((r) => r.lost.map((l) => `${shortName(r.file)}: ${l}`));
  const rows: BenchRow[] = [
    ...results.map((r) => r.row),
    {
      group: GROUP,
      name: 'replays whose final context ends under the budget',
      value: under.length,
      unit: 'transcripts',
      baseline: results.length,
      goal: 'all',
      met: under.length === results.length,
      note:
        `${scope}; budget: half of each transcript's tokens${over.length > 0 ? `; over: ${over.join(', ')}` : ''}; ` +
        `baseline: the number of transcripts (drop-oldest fits every one by construction)`,
    },
    {
      group: GROUP,
      name: 'probes kept verbatim in the final context',
      value: inContext,
      unit: '%',
      baseline: dropOldest,
      ratio: inContext / dropOldest,
      goal: `≥ ${PROBES_KEPT_GOAL * 100}%`,
      met: inContext >= PROBES_KEPT_GOAL * 100,
      note:
        `${kept} of ${probes} probes, ${results.length} transcripts; ` +
        `the final context is what the last request sends: ctx's context message (ledger, checkpoints) and the live messages; ` +
        `baseline: dropping the oldest messages until the context fits the same budget${lost.length > 0 ? `; lost: ${lost.join('; ')}` : ''}`,
    },
    ...probeKindRows(
      GROUP,
      results.flatMap((r) => r.outcomes),
      SEARCH_TOP,
      scope,
    ),
    {
      group: GROUP,
      name: `probes found by search in the top ${SEARCH_TOP}`,
      value: share(
        sum((r) => r.probes.bySearch),
        probes,
      ),
      unit: '%',
      baseline: dropOldest,
      ratio:
        share(
          sum((r) => r.probes.bySearch),
          probes,
        ) / dropOldest,
      note: `${scope}; a hit counts when its excerpt, message or file lines hold the probe; baseline: drop-oldest keeps them in context`,
    },
    {
      group: GROUP,
      name: 'probes in the context or found by search',
      value: recoverable,
      unit: '%',
      baseline: dropOldest,
      ratio: recoverable / dropOldest,
      note: `${scope}; baseline: drop-oldest`,
    },
    {
      group: GROUP,
      name: 'final context, all transcripts',
      value: sum((r) => r.finalTokens),
      unit: 'tokens',
      baseline: sum((r) => r.budget),
      ratio:
        sum((r) => r.budget) /
        Math.max(
          1,
          sum((r) => r.finalTokens),
        ),
      note: `${scope}; baseline: the budgets added up; ratio: budget / final`,
    },
    {
      group: GROUP,
      name: 'share of the budget used by the final context',
      value: median(results.map((r) => 100 * r.finalUsage)),
      unit: '%',
      note: `${scope}; median over the transcripts (all together: ${share(
        sum((r) => r.finalTokens),
        sum((r) => r.budget),
      ).toFixed(
        1,
      )}% of the budgets added up); each: ${results.map((r) => `${shortName(r.file)} ${(100 * r.finalUsage).toFixed(1)}%`).join(', ')}`,
    },
    {
      group: GROUP,
      name: 'recall checks: facts kept in the context, found by search or put back',
      value: share(
        sum((r) => r.recall.kept + r.recall.found + r.recall.putBack),
        sum((r) => r.recall.extracted),
      ),
      unit: '%',
      note: `${scope}; all replays together: ${recallWords(sumRecallFigures(results.map((r) => r.recall)))}; each: ${results
        .map((r) => `${shortName(r.file)} ${r.recall.extracted}/${r.recall.kept}/${r.recall.found}/${r.recall.putBack}/${r.recall.lost}`)
        .join(', ')} (extracted/kept/found/put back/lost)`,
    },
    ...smallestAgedRow(results, scope),
    {
      group: GROUP,
      name: 'replays whose peak stayed under the budget',
      value: results.length - peakOver.length,
      unit: 'transcripts',
      baseline: results.length,
      note: `${scope}; the largest context any request of the replay sent${peakOver.length > 0 ? `; over: ${peakOver.map(peakWords).join(', ')}` : ''}`,
    },
    {
      group: GROUP,
      name: 'checkpoints in the final contexts',
      value: sum((r) => r.checkpoints),
      unit: 'checkpoints',
      note: `${scope}; ${results.map((r) => r.checkpoints).join(' + ')}`,
    },
    {
      group: GROUP,
      name: 'checkpoints made (Tier 3 runs), all replays',
      value: sum((r) => r.checkpointsMade),
      unit: 'runs',
      note: `${scope}; ${results.map((r) => r.checkpointsMade).join(' + ')}`,
    },
    {
      group: GROUP,
      name: 'median reduction of the context',
      value: median(reductions),
      unit: '%',
      note: `${scope}; 1 − final / input tokens; drop-oldest reaches the budget (50%) by construction`,
    },
    {
      group: GROUP,
      name: 'replay time, all transcripts',
      value: sum((r) => r.ms),
      unit: 'ms',
      note: `${scope}; median over ${quick ? 1 : 3} runs each, FileStore on the temporary folder`,
    },
  ];
  const natives = results.filter((r) => r.native !== undefined);
  if (natives.length > 0) {
    const nativeProbes = natives.reduce((n, r) => n + (r.native?.total ?? 0), 0);
    const ours = share(
      natives.reduce((n, r) => n + (r.native?.ours ?? 0), 0),
      nativeProbes,
    );
    const theirs = share(
      natives.reduce((n, r) => n + (r.native?.found ?? 0), 0),
      nativeProbes,
    );
    const nativeTokens = natives.reduce((n, r) => n + (r.native?.tokens ?? 0), 0);
    const ourTokens = natives.reduce((n, r) => n + r.finalTokens, 0);
    rows.push({
      group: GROUP,
      name: "probes kept verbatim, against the agent's own compaction",
      value: ours,
      unit: '%',
      baseline: theirs,
      ratio: ours / theirs,
      note:
        `${natives.length} sessions the agent compacted itself, ${nativeProbes} probes; ` +
        `final context ${ourTokens.toLocaleString('en-US')} tokens (ctx) vs ${nativeTokens.toLocaleString('en-US')} (the agent: its summary and all after it)`,
    });
  }
  return rows;
}

/** The smallest aged checkpoint over all replays, and the facts it still holds. */
function smallestAgedRow(results: readonly TranscriptResult[], scope: string): BenchRow[] {
  const withAged = results.filter((r) => r.smallestAged !== undefined);
  const smallest = withAged.sort((a, b) => (a.smallestAged?.tokens ?? 0) - (b.smallestAged?.tokens ?? 0))[0];
  const s = smallest?.smallestAged;
  if (!smallest || !s) return [];
  return [
    {
      group: GROUP,
      name: 'smallest aged checkpoint',
      value: s.tokens,
      unit: 'tokens',
      note:
        `${scope}; ${shortName(smallest.file)}, ${s.age}: it still holds ${s.held} of the ${s.facts} facts of its span verbatim; ` +
        `each replay's smallest: ${withAged.map(smallestAgedWords).join(', ')}`,
    },
  ];
}

runAlone(module, benchReplay);
