import * as assert from 'node:assert/strict';
import type { BenchRow } from '../../bench/benchRow';
import { FIGURES_END, FIGURES_START, NOT_MEASURED, renderCurrentFigures } from '../../bench/currentFigures';
import { rewriteBenchmarks } from '../../bench/run';

/** The cells of the current-figures row whose figure starts with `figure`. */
function rowOf(markdown: string, figure: string): { value: string; date: string } {
  const line = markdown.split('\n').find((l) => l.startsWith(`| ${figure}`));
  assert.ok(line, `no row for ${figure}`);
  const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
  return { value: cells[2], date: cells[4] };
}

const memoryRow: BenchRow = {
  group: 'memory at scale',
  name: 'peak resident memory, 10,000 messages, 128k window',
  value: 264.4,
  unit: 'MB',
  baseline: 236,
  ratio: 1.12,
};

describe('the current figures that open BENCHMARKS.md', () => {
  it('writes a measured row with the value and the date of the run', () => {
    const table = renderCurrentFigures([memoryRow], '2026-12-01', '');
    assert.deepEqual(rowOf(table, 'Memory: peak resident set at 10,000 messages, 128k window'), {
      value: '264 MB (1.12× its baseline)',
      date: '2026-12-01',
    });
  });

  it('keeps the value and the date of a row whose benchmark did not run', () => {
    const before = renderCurrentFigures([memoryRow], '2026-12-01', '');
    const after = renderCurrentFigures([], '2026-12-09', before);
    assert.deepEqual(rowOf(after, 'Memory: peak resident set at 10,000 messages, 128k window'), {
      value: '264 MB (1.12× its baseline)',
      date: '2026-12-01',
    });
  });

  it('says a prompt-cache figure is not measured until the prompt cache benchmark gives its rows', () => {
    const empty = renderCurrentFigures([], '2026-12-01', '');
    assert.equal(rowOf(empty, 'Prompt cache: share of each request reused').value, NOT_MEASURED);
    const reused: BenchRow = {
      group: 'prompt cache',
      name: 'every split, 12 sessions over 60,000 tokens: share of each request reused from the previous one (ctx; baseline: plain compaction)',
      value: 96.5,
      unit: '%',
      note: 'plain compaction 95.0%, no compression 99.0%; 900 requests, 20 rebases',
    };
    const perSplit: BenchRow = { ...reused, name: reused.name.replace('every split, 12', 'set1, 3'), value: 50 };
    const priced: BenchRow = {
      group: 'prompt cache',
      name: 'every split, 12 sessions over 60,000 tokens: priced input, summary requests included (ctx; baseline: plain compaction)',
      value: 0.41,
      unit: '×',
    };
    const filled = renderCurrentFigures([perSplit, reused, priced], '2026-12-02', empty);
    assert.deepEqual(rowOf(filled, 'Prompt cache: share of each request reused'), {
      value: '96.50 %: plain compaction 95.0%, no compression 99.0%',
      date: '2026-12-02',
    });
    assert.equal(rowOf(filled, 'Prompt cache: priced input').value, '0.41 ×');
  });

  it('rewrites only the table and the full run, keeping the opening words and the earlier rounds as written', () => {
    const previous = [
      '# Benchmarks',
      '',
      'Opening words.',
      '',
      FIGURES_START,
      FIGURES_END,
      '',
      '## The last full run of `npm run bench`',
      '',
      'old table',
      '',
      '## Earlier rounds',
      '',
      'A round kept by hand.',
      '',
    ].join('\n');
    const written = rewriteBenchmarks(previous, [memoryRow], '2026-12-03', 'node v20, 2 cores');
    assert.ok(written.startsWith('# Benchmarks\n\nOpening words.\n\n' + FIGURES_START));
    assert.equal(rowOf(written, 'Memory: peak resident set at 10,000 messages, 128k window').date, '2026-12-03');
    assert.ok(!written.includes('old table'));
    assert.ok(written.includes('| memory at scale | peak resident memory, 10,000 messages, 128k window | 264 MB'));
    assert.ok(written.endsWith('## Earlier rounds\n\nA round kept by hand.\n'));
  });
});
