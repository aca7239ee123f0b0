/**
 * The table of current figures that opens BENCHMARKS.md: one row per figure a reader asks for first, each with the
 * command that measures it and the date it was measured. `npm run bench` rewrites the rows whose benchmark ran, from
 * its rows; a row whose benchmark did not run (or that another command measures, such as the real-VS-Code round
 * gap) keeps its value and date.
 */
import type { BenchRow } from './benchRow';

/** Where the table starts and ends in BENCHMARKS.md; everything else in the file is left as it is. */
export const FIGURES_START = '<!-- current figures: rewritten by `npm run bench` (test/bench/currentFigures.ts) -->';
export const FIGURES_END = '<!-- end of current figures -->';

/** One row of the table, and the benchmark row it is read from (none: measured by another command, kept as written). */
export interface FigureSource {
  readonly figure: string;
  readonly command: string;
  readonly from?: { readonly group: string; readonly name: RegExp };
  /** Also show the benchmark row's note up to its first semicolon (what the value is of). */
  readonly withNote?: boolean;
  /** The value in words, when the row's value, ratio and note do not say it plainly. */
  readonly value?: (row: BenchRow) => string;
}

const bench = (group: string) => `\`npm run bench\`, group "${group}"`;

export const FIGURE_SOURCES: readonly FigureSource[] = [
  ...['set1', 'set2', 'set3', 'validation'].map((split): FigureSource => ({
    figure: `Facts kept verbatim in the final context, ${split === 'set3' ? 'set3 (tuning)' : split}`,
    command: `\`npm run probes\` (${bench('probe splits')})`,
    from: { group: 'probe splits', name: new RegExp(`^${split}: probes kept verbatim in the final context$`) },
    withNote: true,
  })),
  {
    figure: 'Prompt cache: share of each request reused from the previous one, every split',
    command: bench('prompt cache'),
    from: { group: 'prompt cache', name: /^every split, .*reused/ },
    withNote: true,
  },
  {
    figure: 'Prompt cache: priced input, against a plain compaction, every split',
    command: bench('prompt cache'),
    from: { group: 'prompt cache', name: /^every split, .*priced input/ },
    withNote: true,
  },
  {
    figure: 'Memory: peak resident set at 10,000 messages, 128k window (ratio: to 2,500 messages)',
    command: bench('memory at scale'),
    from: { group: 'memory at scale', name: /^peak resident memory, 10,000 messages, 128k window$/ },
  },
  {
    figure: 'Memory: peak resident set at 10,000 messages, 1M window (ratio: to 2,500 messages)',
    command: bench('memory at scale'),
    from: { group: 'memory at scale', name: /^peak resident memory, 10,000 messages, 1M window$/ },
  },
  {
    figure: 'Real VS Code: round gap growth, ctx against the control participant (80 rounds; goal ≤ 1.5)',
    command: '`node test/vscode/run-integration.js --grep "long @ctx turn"` (also in `npm test`)',
  },
  {
    figure: 'Replay speed: 10,000 messages in a 64k window',
    command: bench('long session'),
    from: { group: 'long session', name: /^whole replay: time at 4× the session$/ },
    value: (r) => {
      const perMessage = /([\d.]+ ms a message)/.exec(r.note ?? '')?.[1] ?? '';
      const ratio = r.ratio === undefined ? '' : ` (${r.ratio.toFixed(2)}× the time of 2,500 messages)`;
      return `${perMessage}: ${fmt(r.value)} ${r.unit} in all${ratio}`;
    },
  },
  {
    figure: 'ctx model: time added per request at ~500 messages (median)',
    command: bench('provider'),
    from: { group: 'provider', name: /^time added per request, ~500 messages \(median\)$/ },
  },
];

/** What a row says when nothing has measured it yet. */
export const NOT_MEASURED = 'not measured yet';

const fmt = (v: number) => (v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(2));
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** A benchmark row as the table's value: "264 MB (1.12× the baseline)", with the note's first part when asked. */
export function figureValue(row: BenchRow, withNote: boolean): string {
  const ratio = row.ratio === undefined ? '' : ` (${row.ratio.toFixed(2)}× its baseline)`;
  const note = withNote && row.note ? `: ${row.note.split(';')[0].trim()}` : '';
  return `${fmt(row.value)} ${row.unit}`.trim() + ratio + note;
}

/** The cells of each row of the table in `markdown`, by figure (empty when it has no table). */
function rowsOf(markdown: string): Map<string, { value: string; date: string }> {
  const rows = new Map<string, { value: string; date: string }>();
  const start = markdown.indexOf(FIGURES_START);
  const end = markdown.indexOf(FIGURES_END);
  if (start < 0 || end < start) return rows;
  for (const line of markdown.slice(start, end).split('\n')) {
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells.length === 4 && cells[0] !== 'Figure' && !/^-+$/.test(cells[0])) rows.set(cells[0], { value: cells[1], date: cells[3] });
  }
  return rows;
}

/** The table, its rows from `rows` where a benchmark measured them on `date`, the others as `previous` had them. */
export function renderCurrentFigures(rows: readonly BenchRow[], date: string, previous: string): string {
  const kept = rowsOf(previous);
  const lines = [FIGURES_START, '| Figure | Value | Measured by | Date |', '|---|---|---|---|'];
  for (const source of FIGURE_SOURCES) {
    const from = source.from;
    const measured = from ? rows.find((r) => r.group === from.group && from.name.test(r.name)) : undefined;
    const old = kept.get(cell(source.figure));
    const value = measured
      ? cell(source.value ? source.value(measured) : figureValue(measured, source.withNote ?? false))
      : (old?.value ?? NOT_MEASURED);
    const when = measured ? date : (old?.date ?? '—');
    lines.push(`| ${cell(source.figure)} | ${value} | ${cell(source.command)} | ${when} |`);
  }
  lines.push(FIGURES_END);
  return lines.join('\n');
}

/** `markdown` with its table of current figures rewritten (or added at its end when it has none). */
export function rewriteCurrentFigures(markdown: string, rows: readonly BenchRow[], date: string): string {
  const table = renderCurrentFigures(rows, date, markdown);
  const start = markdown.indexOf(FIGURES_START);
  const end = markdown.indexOf(FIGURES_END);
  if (start >= 0 && end > start) return markdown.slice(0, start) + table + markdown.slice(end + FIGURES_END.length);
  return `${markdown.trimEnd()}\n\n${table}\n`;
}
