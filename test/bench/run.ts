/**
 * `npm run bench`: every benchmark in one run, printed and written to BENCHMARKS.md. Each figure is
 * a median over repetitions and, where it has one, a ratio against a baseline measured in the same
 * run. `--quick` runs a short version (CI uses it so the suite cannot rot).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchActivation } from './activation';
import type { BenchRow } from './benchRow';
import { benchCheckpoints } from './checkpoints';
import { rewriteCurrentFigures } from './currentFigures';
import { benchDashboard } from './dashboard';
import { benchEngineSpeed } from './engineSpeed';
import { benchLongSession } from './longSession';
import { benchMemory } from './memory';
import { benchProbeSplits } from './probeSplits';
import { benchPromptCache } from './promptCache';
import { benchProvider } from './provider';
import { benchReportedWindow } from './reportedWindow';
import { benchReplay } from './replay';
import { benchScaleMemory } from './scaleMemory';
import { benchSecrets } from './secrets';
import { benchStateJournal } from './stateJournal';
import { benchTiers } from './tiers';
import { benchTokens } from './tokens';

/** Where the hand-kept end of BENCHMARKS.md starts; everything from it on survives a rerun. */
const KEPT_HEADING = '## Earlier rounds';
/** The heading of the full table of the last run. */
const FULL_RUN_HEADING = '## The last full run of `npm run bench`';

const fmt = (v: number | undefined, digits = 2) =>
  v === undefined || Number.isNaN(v) ? '' : v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(digits);

/** A table cell: a pipe inside the text would end the cell. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

export function renderTable(rows: readonly BenchRow[]): string {
  const lines = ['| Group | Measure | Value | Baseline | Ratio | Goal | Met | Note |', '|---|---|---|---|---|---|---|---|'];
  for (const r of rows) {
    const cells = [
      r.group,
      cell(r.name),
      `${fmt(r.value)} ${r.unit}`,
      r.baseline === undefined ? '' : `${fmt(r.baseline)} ${r.unit}`,
      r.ratio === undefined ? '' : `${fmt(r.ratio, 1)}×`,
      r.goal ?? '',
      r.met === undefined ? '' : r.met ? 'yes' : 'no',
      cell(r.note ?? ''),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/**
 * BENCHMARKS.md after a full run: its opening words and the hand-kept end as they were, the table of current figures
 * rewritten from this run's rows, and the full table of this run in between.
 */
export function rewriteBenchmarks(previous: string, rows: readonly BenchRow[], date: string, machine: string): string {
  const fullRunAt = previous.indexOf(`\n${FULL_RUN_HEADING}`);
  const head = (fullRunAt < 0 ? previous : previous.slice(0, fullRunAt)) || '# Benchmarks\n';
  const keptAt = previous.indexOf(`\n${KEPT_HEADING}`);
  const kept = keptAt < 0 ? '' : previous.slice(keptAt);
  const measured = `Measured by \`npm run bench\` on ${date} (${machine}). Medians over repetitions; ratios against baselines measured in the same run.`;
  return `${rewriteCurrentFigures(head, rows, date).trimEnd()}\n\n${FULL_RUN_HEADING}\n\n${measured}\n\n${renderTable(rows)}\n${kept}`;
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const started = Date.now();
  const rows: BenchRow[] = [
    ...(await benchActivation(quick ? 5 : 15)),
    ...(await benchTokens()),
    ...(await benchTiers(quick)),
    ...(await benchReplay(quick)),
    ...(await benchProbeSplits(quick)),
    ...(await benchPromptCache(quick)),
    ...(await benchCheckpoints(quick)),
    ...(await benchLongSession(quick)),
    ...(await benchMemory(quick)),
    ...(await benchScaleMemory(quick)),
    ...(await benchProvider(quick)),
    ...(await benchReportedWindow(quick)),
    ...(await benchStateJournal(quick)),
    ...(await benchDashboard(quick)),
    ...(await benchSecrets(quick)),
    ...(await benchEngineSpeed(quick)),
  ];
  const table = renderTable(rows);
  console.log(table);
  if (!quick) {
    const out = path.resolve(__dirname, '../../../BENCHMARKS.md');
    const previous = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
    const machine = `node ${process.version}, ${os.cpus().length} cores`;
    fs.writeFileSync(out, rewriteBenchmarks(previous, rows, new Date().toISOString().slice(0, 10), machine));
    console.log(`\nWritten to ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }
  const missed = rows.filter((r) => r.met === false);
  if (missed.length > 0) console.log(`\nGoals missed: ${missed.map((r) => r.name).join('; ')}`);
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
