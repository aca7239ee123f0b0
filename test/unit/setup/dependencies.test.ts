import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { REPOSITORY_ROOT } from '../support/repository';
import { TempFolders } from '../support/tempFolder';

/** test/dependencies.js: plain JavaScript, run by `npm start` and `npm test` before anything is installed. */
interface DependenciesModule {
  staleReason(root: string): string | undefined;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { staleReason } = require(path.join(REPOSITORY_ROOT, 'test', 'dependencies.js')) as DependenciesModule;

type Packages = Record<string, { version?: string; optional?: boolean }>;

const LOCKED: Packages = {
  '': { version: '0.1.0' },
  'node_modules/mocha': { version: '11.8.0' },
  'node_modules/@esbuild/darwin-arm64': { version: '0.28.2', optional: true },
};

describe('the packages npm start and npm test install first', () => {
  const temp = new TempFolders();
  after(() => temp.cleanUp());

  async function clone(installed: Packages | undefined): Promise<string> {
    const root = await temp.make('ctx-deps-');
    await fs.writeFile(path.join(root, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: LOCKED }));
    if (installed) {
      await fs.mkdir(path.join(root, 'node_modules'));
      await fs.writeFile(path.join(root, 'node_modules', '.package-lock.json'), JSON.stringify({ packages: installed }));
    }
    return root;
  }

  it('installs on a fresh clone, where node_modules is missing', async () => {
    assert.equal(staleReason(await clone(undefined)), 'node_modules is missing');
  });

  it('installs nothing when node_modules holds every locked package, an optional one of another platform aside', async () => {
    assert.equal(staleReason(await clone({ 'node_modules/mocha': { version: '11.8.0' } })), undefined);
  });

  it('installs again when a locked package is missing or in another version, or one is not locked', async () => {
    assert.equal(staleReason(await clone({})), 'mocha is not installed');
    assert.equal(
      staleReason(await clone({ 'node_modules/mocha': { version: '10.0.0' } })),
      'mocha is 10.0.0, package-lock.json says 11.8.0',
    );
    assert.equal(
      staleReason(await clone({ 'node_modules/mocha': { version: '11.8.0' }, 'node_modules/left-pad': { version: '1.3.0' } })),
      'left-pad is installed but not in package-lock.json',
    );
  });

  it('installs again when node_modules has no record of what npm installed', async () => {
    const root = await clone(undefined);
    await fs.mkdir(path.join(root, 'node_modules'));
    assert.equal(staleReason(root), "node_modules has no record of npm's install");
  });
});
