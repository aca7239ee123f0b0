/**
 * Runs the real bundled command line (`dist/cli.js`) as a child process, the way people run it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPOSITORY_ROOT } from '../support/repository';

export { REPOSITORY_ROOT };

export const CLI_BUNDLE = path.join(REPOSITORY_ROOT, 'dist', 'cli.js');

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Bundles the sources with esbuild.js, so the tests run the command line as it ships. */
export function buildCli(): void {
  const build = spawnSync(process.execPath, ['esbuild.js'], { cwd: REPOSITORY_ROOT, encoding: 'utf8' });
  if (build.status !== 0 || !fs.existsSync(CLI_BUNDLE)) {
    throw new Error(`node esbuild.js failed (${build.status}): ${build.stderr}${build.stdout}`);
  }
}

/** Runs `node dist/cli.js …args` and waits for it. */
export function runBuiltCli(args: readonly string[]): CliRun {
  const run = spawnSync(process.execPath, [CLI_BUNDLE, ...args], { cwd: REPOSITORY_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** New empty folders under the system's temporary folder, removed together when a suite ends. */
export class TemporaryFolders {
  private readonly made: string[] = [];

  make(prefix: string): string {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), `ctx-${prefix}-`));
    this.made.push(folder);
    return folder;
  }

  removeAll(): void {
    for (const folder of this.made.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  }
}
