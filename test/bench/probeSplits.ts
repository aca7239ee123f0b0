/**
 * The probe figures of every split of the real transcripts (set1 and set2, the tuning split set3 and
 * the validation split): each session replayed in-process as `replay` does, at a budget of half its
 * input tokens plus the answer reserve, and each early fact (probes.json / probes.dev.json) checked
 * verbatim in the final context and among the top search hits. The validation split is for
 * measuring only: read its figures, never its probes, while changing rules.
 * Run alone with `node out/test/bench/probeSplits.js [--split set1,set3] [--json] [--quick]`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { importTranscript } from '../../src/cli/import/importTranscript';
import { renderContext } from '../../src/cli/replay/renderContext';
import { replayTranscript } from '../../src/cli/replay/replayTranscript';
import { DEFAULT_ANSWER_RESERVE_TOKENS } from '../../src/engine/budget';
import { RecoveryIndex } from '../../src/engine/recovery/recoveryIndex';
import type { TokenCounter } from '../../src/engine/tokens/counter';
import { contextHolds, rankOfProbe } from '../unit/cli/probeHits';
import type { Probe } from '../unit/import/realTranscripts';
import { TRANSCRIPT_SETS_FOLDER } from '../unit/support/repository';
import type { BenchRow } from './benchRow';
import { PROBE_KINDS } from './probeKinds';
import { BenchStore, readyCounter } from './replayFixtures';

const GROUP = 'probe splits';
/** A probe counts as found by search when a hit among the first this many leads to it. */
const SEARCH_TOP = 3;
/** Every split, in report order. */
export const SPLITS = ['set1', 'set2', 'set3', 'validation'] as const;
/** The quick run replays this many of the smallest sessions of the first split only. */
const QUICK_SESSIONS = 2;

/** What one session's replay did to its probes. */
export interface SessionProbes {
  readonly split: string;
  readonly file: string;
  readonly probes: number;
  readonly byKind: Readonly<Record<string, { readonly total: number; readonly verbatim: number; readonly found: number }>>;
  readonly verbatim: number;
  readonly found: number;
  /** The final context's share of the budget. */
  readonly usage: number;
  readonly ms: number;
  /** Why the command line cannot read the session yet (its probes then count as lost); absent when it replayed. */
  readonly unread?: string;
}

/** One split's figures, added up over its sessions. */
export interface SplitFigures {
  readonly split: string;
  readonly sessions: number;
  readonly probes: number;
  readonly verbatim: number;
  readonly found: number;
  readonly byKind: Readonly<Record<string, { readonly total: number; readonly verbatim: number; readonly found: number }>>;
  /** Median share of the budget the final contexts use. */
  readonly medianUsage: number;
  readonly totalMs: number;
  /** Sessions the importer cannot read yet, with the reason; their probes count as lost. */
  readonly unread: readonly string[];
}

interface ManifestFile {
  readonly file: string;
}

/** The probes file of a split: probes.json for the new splits, probes.dev.json for the first two. */
function probesOf(folder: string): Probe[] {
  const file = ['probes.json', 'probes.dev.json'].map((name) => path.join(folder, name)).find((p) => fs.existsSync(p));
  if (file === undefined) throw new Error(`${folder} has no probes.json`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Probe[];
}

/** The session files of a split, smallest first. */
function filesOf(folder: string): string[] {
  const entries = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as ManifestFile[];
  const size = (file: string) => fs.statSync(path.join(folder, file)).size;
  return entries.map((e) => e.file).sort((a, b) => size(a) - size(b));
}

/** Replays one session as the command line does and checks its probes in the final context and in search. */
export async function replaySessionProbes(
  split: string,
  folder: string,
  file: string,
  probes: readonly Probe[],
  counter: TokenCounter,
): Promise<SessionProbes> {
  let imported: ReturnType<typeof importTranscript>;
  try {
    imported = importTranscript(fs.readFileSync(path.join(folder, file), 'utf8'), { keepNativeCompaction: false });
    if (imported.messages.length === 0) throw new Error('holds no messages to replay');
  } catch (error) {
    return unreadSession(split, file, probes, error instanceof Error ? error.message : String(error));
  }
  const inputTokens = (await counter.measure(imported.messages)).total;
  const maxInputTokens = Math.ceil(inputTokens / 2) + DEFAULT_ANSWER_RESERVE_TOKENS;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-bench-probes-'));
  try {
    const store = new BenchStore(dir);
    const { figures, session, final } = await replayTranscript(imported, {
      maxInputTokens,
      store,
      counter,
      stopwatch: { now: () => performance.now() },
    });
    const context = renderContext(final?.messages ?? [], {
      tokens: figures.finalTokens,
      budget: figures.budget,
      level: figures.finalLevel,
    });
    const index = await RecoveryIndex.build(store, session.id);
    const archive = await session.readArchive();
    const byKind: Record<string, { total: number; verbatim: number; found: number }> = {};
    let verbatim = 0;
    let found = 0;
    for (const probe of probes) {
      const kept = contextHolds(context, probe.probe);
      const hit = (await rankOfProbe(await index.search(probe.probe, { top: SEARCH_TOP }), probe.probe, store, archive)) !== undefined;
      const kind = (byKind[probe.kind] ??= { total: 0, verbatim: 0, found: 0 });
      kind.total++;
      kind.verbatim += kept ? 1 : 0;
      kind.found += hit ? 1 : 0;
      verbatim += kept ? 1 : 0;
      found += hit ? 1 : 0;
    }
    session.dispose();
    return { split, file, probes: probes.length, byKind, verbatim, found, usage: figures.finalUsage, ms: figures.ms };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A session the importer cannot read yet: every probe lost, nothing replayed. */
function unreadSession(split: string, file: string, probes: readonly Probe[], reason: string): SessionProbes {
  const byKind: Record<string, { total: number; verbatim: number; found: number }> = {};
  for (const probe of probes) (byKind[probe.kind] ??= { total: 0, verbatim: 0, found: 0 }).total++;
  return { split, file, probes: probes.length, byKind, verbatim: 0, found: 0, usage: NaN, ms: 0, unread: reason };
}

/** Adds up the sessions of one split. */
export function splitFigures(split: string, sessions: readonly SessionProbes[]): SplitFigures {
  const byKind: Record<string, { total: number; verbatim: number; found: number }> = {};
  for (const s of sessions) {
    for (const [kind, k] of Object.entries(s.byKind)) {
      const sum = (byKind[kind] ??= { total: 0, verbatim: 0, found: 0 });
      sum.total += k.total;
      sum.verbatim += k.verbatim;
      sum.found += k.found;
    }
  }
  const usages = sessions
    .filter((s) => s.unread === undefined)
    .map((s) => s.usage)
    .sort((a, b) => a - b);
  const mid = usages.length >> 1;
  return {
    split,
    sessions: sessions.length,
    probes: sessions.reduce((n, s) => n + s.probes, 0),
    verbatim: sessions.reduce((n, s) => n + s.verbatim, 0),
    found: sessions.reduce((n, s) => n + s.found, 0),
    byKind,
    medianUsage: usages.length === 0 ? NaN : usages.length % 2 === 1 ? usages[mid] : (usages[mid - 1] + usages[mid]) / 2,
    totalMs: sessions.reduce((n, s) => n + s.ms, 0),
    unread: sessions.flatMap((s) => (s.unread === undefined ? [] : [`${s.file}: ${s.unread}`])),
  };
}

/** Replays every session of the splits named (the smallest few of the first with `quick`). */
export async function measureSplits(splits: readonly string[], quick: boolean): Promise<SplitFigures[]> {
  const counter = await readyCounter();
  const results: SplitFigures[] = [];
  for (const split of quick ? splits.slice(0, 1) : splits) {
    const folder = path.join(TRANSCRIPT_SETS_FOLDER, split);
    const probes = probesOf(folder);
    const files = quick ? filesOf(folder).slice(0, QUICK_SESSIONS) : filesOf(folder);
    const sessions: SessionProbes[] = [];
    for (const file of files) {
      sessions.push(
        await replaySessionProbes(
          split,
          folder,
          file,
          probes.filter((p) => p.file === file),
          counter,
        ),
      );
    }
    results.push(splitFigures(split, sessions));
  }
  return results;
}

const percent = (part: number, whole: number) => (whole > 0 ? (100 * part) / whole : NaN);

/** One row per split and kind, then the split's total, search, budget use and time. */
export function splitRows(figures: readonly SplitFigures[], scope: string): BenchRow[] {
  return figures.flatMap((f) => {
    const kinds = [...PROBE_KINDS, ...Object.keys(f.byKind).filter((k) => !(PROBE_KINDS as readonly string[]).includes(k))];
    const kindRows: BenchRow[] = kinds.flatMap((kind) => {
      const k = f.byKind[kind];
      if (k === undefined) return [];
      return [
        {
          group: GROUP,
          name: `${f.split}: ${kind} probes kept verbatim`,
          value: percent(k.verbatim, k.total),
          unit: '%',
          note: `${k.verbatim} of ${k.total}; found by search in the top ${SEARCH_TOP}: ${k.found}`,
        },
      ];
    });
    return [
      ...kindRows,
      {
        group: GROUP,
        name: `${f.split}: probes kept verbatim in the final context`,
        value: percent(f.verbatim, f.probes),
        unit: '%',
        note:
          `${f.verbatim} of ${f.probes} probes over ${f.sessions} sessions (${scope}); budget = half the input + ${DEFAULT_ANSWER_RESERVE_TOKENS}` +
          (f.unread.length > 0 ? `; ${f.unread.length} session(s) the importer cannot read yet count as lost` : ''),
      },
      {
        group: GROUP,
        name: `${f.split}: probes found by search in the top ${SEARCH_TOP}`,
        value: percent(f.found, f.probes),
        unit: '%',
        note: `${f.found} of ${f.probes}`,
      },
      {
        group: GROUP,
        name: `${f.split}: share of the budget the final context uses (median)`,
        value: 100 * f.medianUsage,
        unit: '%',
        note: `replay time ${(f.totalMs / 1000).toFixed(1)} s over ${f.sessions} sessions`,
      },
    ];
  });
}

/** The benchmark group: every split (quick: two small sessions of set1). */
export async function benchProbeSplits(quick = false): Promise<BenchRow[]> {
  return splitRows(await measureSplits(SPLITS, quick), quick ? `the ${QUICK_SESSIONS} smallest sessions of set1 only` : 'every session');
}

function parseSplits(argv: readonly string[]): string[] {
  const at = argv.indexOf('--split');
  if (at < 0) return [...SPLITS];
  const named = (argv[at + 1] ?? '').split(',').filter((s) => s.length > 0);
  const unknown = named.filter((s) => !(SPLITS as readonly string[]).includes(s));
  if (named.length === 0 || unknown.length > 0) throw new Error(`--split takes a comma-separated list of ${SPLITS.join(', ')}`);
  return named;
}

function printTable(figures: readonly SplitFigures[]): void {
  const cellOf = (k: { total: number; verbatim: number } | undefined) => (k ? `${k.verbatim}/${k.total}` : '');
  console.table(
    figures.map((f) => ({
      split: f.split,
      sessions: f.sessions,
      ...Object.fromEntries(PROBE_KINDS.map((kind) => [kind, cellOf(f.byKind[kind])])),
      verbatim: `${f.verbatim}/${f.probes} (${percent(f.verbatim, f.probes).toFixed(1)}%)`,
      [`search top ${SEARCH_TOP}`]: `${f.found}/${f.probes} (${percent(f.found, f.probes).toFixed(1)}%)`,
      'budget used (median)': `${(100 * f.medianUsage).toFixed(1)}%`,
      'replay s': (f.totalMs / 1000).toFixed(1),
    })),
  );
}

if (require.main === module) {
  (async () => {
    const argv = process.argv.slice(2);
    const figures = await measureSplits(parseSplits(argv), argv.includes('--quick'));
    if (argv.includes('--json')) console.log(JSON.stringify(figures, null, 1));
    else {
      printTable(figures);
      for (const f of figures) for (const reason of f.unread) console.log(`${f.split}: not read yet (probes counted as lost): ${reason}`);
    }
  })().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
