/** One benchmark file run on its own (`node out/test/bench/<name>.js [--quick]`): its rows as a table. */
import type { BenchRow } from './benchRow';

/** Runs `bench` when `module` is the program node started, and prints its rows; a failure sets the exit code. */
export function runAlone(module: NodeModule, bench: (quick: boolean) => Promise<readonly BenchRow[]>): void {
  if (require.main !== module) return;
  bench(process.argv.includes('--quick')).then(printRows, (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

function printRows(rows: readonly BenchRow[]): void {
  const format = (n: number | undefined) => (n === undefined ? '' : n >= 100 ? n.toFixed(0) : n.toFixed(2));
  console.table(
    rows.map((row) => ({
      name: row.name,
      value: `${format(row.value)} ${row.unit}`,
      baseline: row.baseline === undefined ? '' : `${format(row.baseline)} ${row.unit}`,
      ratio: row.ratio === undefined ? '' : `${format(row.ratio)}×`,
      goal: row.goal ?? '',
      met: row.met === undefined ? '' : row.met ? 'yes' : 'NO',
      note: row.note ?? '',
    })),
  );
}
