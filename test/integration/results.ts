import * as fs from 'fs';
import * as path from 'path';

/** Version of the result file's shape; bump it when the shape changes. */
export const RESULT_SCHEMA_VERSION = 1;

/** One test as the result file records it. */
export interface TestRecord {
  title: string;
  fullTitle: string;
  file?: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
  error?: { message: string; stack?: string };
}

/** What the in-host runner writes for the harness (and for anyone reading test-results/). */
export interface ResultFile {
  schemaVersion: number;
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  tests: TestRecord[];
  /** Numbers the tests measured (activation time…), by name. */
  metrics: Record<string, number | string>;
}

/**
 * Where the result file goes: CTX_TEST_RESULT_FILE (set by the harness), else
 * test-results/integration-results.json in the repository.
 */
export function resultFilePath(): string {
  return process.env.CTX_TEST_RESULT_FILE ?? path.resolve(__dirname, '..', '..', '..', 'test-results', 'integration-results.json');
}

/** Metrics are appended, one JSON object a line, beside the result file, and merged into it at the end. */
export function metricsFilePath(): string {
  return `${resultFilePath()}.metrics.jsonl`;
}

/** Records a metric of this run; it appears under `metrics` in the result file and in the harness output. */
export function recordMetric(name: string, value: number | string): void {
  const file = metricsFilePath();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, `${JSON.stringify({ name, value })}\n`);
}

/** Reads back the metrics recorded so far (a later value of the same name wins). */
export function readMetrics(): Record<string, number | string> {
  const metrics: Record<string, number | string> = {};
  let text = '';
  try {
    text = fs.readFileSync(metricsFilePath(), 'utf8');
  } catch {
    return metrics;
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const entry: unknown = JSON.parse(line);
    if (isMetric(entry)) metrics[entry.name] = entry.value;
  }
  return metrics;
}

function isMetric(value: unknown): value is { name: string; value: number | string } {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { name?: unknown; value?: unknown };
  return typeof candidate.name === 'string' && (typeof candidate.value === 'number' || typeof candidate.value === 'string');
}

/** Writes the result file atomically (temporary file + rename). */
export function writeResultFile(result: ResultFile): string {
  const file = resultFilePath();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(result, null, 2));
  fs.renameSync(`${file}.tmp`, file);
  return file;
}
