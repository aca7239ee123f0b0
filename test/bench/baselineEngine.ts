/**
 * An earlier engine beside today's, built in the same run, so that a benchmark compares the two on one machine under
 * one load: the sources of the earlier commit are taken out of git into a temporary folder, and both engines are
 * bundled by esbuild from the same entry, so neither is built differently from the other.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The repository root, from wherever the compiled benchmark runs (out/test/bench). */
const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..', '..');

export interface EnginePair<T> {
  readonly today: T;
  readonly baseline: T;
  /** Removes the temporary folder. */
  dispose(): void;
}

/**
 * Today's engine (the working tree) and the engine of `commit`, each bundled from `entry`: TypeScript that imports from
 * `./src/...` and exports what the benchmark calls. A problem in plain words when the earlier engine cannot be built
 * (no git, a shallow clone without the commit).
 */
export function buildEnginePair<T>(entry: string, commit: string): EnginePair<T> | { readonly problem: string } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-baseline-'));
  const dispose = () => fs.rmSync(folder, { recursive: true, force: true });
  try {
    const tar = execFileSync('git', ['archive', '--format=tar', commit, 'src'], { cwd: REPOSITORY_ROOT, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', folder], { input: tar });
    const today = bundle<T>(entry, REPOSITORY_ROOT, path.join(folder, 'today.js'));
    const baseline = bundle<T>(entry, folder, path.join(folder, 'baseline.js'));
    return { today, baseline, dispose };
  } catch (e) {
    dispose();
    return { problem: `the engine of ${commit} could not be built here (${e instanceof Error ? e.message.split('\n')[0] : String(e)})` };
  }
}

function bundle<T>(entry: string, root: string, outfile: string): T {
  // A development dependency, loaded only when a benchmark compares engines.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof import('esbuild');
  esbuild.buildSync({
    stdin: { contents: entry, resolveDir: root, loader: 'ts' },
    // The earlier engine's packages are the repository's: its folder has no node_modules of its own.
    nodePaths: [path.join(REPOSITORY_ROOT, 'node_modules')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'error',
    external: ['vscode'],
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(outfile) as T;
}
