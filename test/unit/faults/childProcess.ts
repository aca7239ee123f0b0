/** Child processes for the fault tests: started, read line by line, killed at a chosen moment. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

/** The compiled child script `name` (from `test/unit/faults/children/`). */
export const childScript = (name: string): string => path.join(__dirname, 'children', `${name}.js`);

export interface ChildRun {
  readonly child: ChildProcess;
  /** Lines printed so far. */
  readonly lines: string[];
  /** Resolves with the exit code, or the signal that ended it. */
  readonly ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts `node <script> ...args`, or `sh -c '<shellPrefix>; exec node …'` when a prefix (limits) is given. */
export function startChild(script: string, args: readonly string[], shellPrefix?: string): ChildRun {
  const child = shellPrefix
    ? spawn('sh', ['-c', `${shellPrefix}; exec "$0" "$@"`, process.execPath, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, lines, ended };
}

/** Waits until the child printed at least `count` lines (or ended). */
export async function waitForLines(run: ChildRun, count: number, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let ended = false;
  void run.ended.then(() => (ended = true));
  while (run.lines.length < count && !ended && Date.now() < until) await new Promise((r) => setTimeout(r, 2));
}
