import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { EncodingName } from '../../ports';
import { loadPackageRanks, type RankLoader, loadRankFile } from '../localTokenizer';

/**
 * The build (esbuild.js) writes each rank file to `dist/ranks/<encoding>.js`, next to the
 * worker, so the extension bundle never contains one and the package needs no node_modules.
 */
export function bundledRankPath(folder: string, encoding: EncodingName): string {
  return path.join(folder, 'ranks', `${encoding}.js`);
}

/**
 * Loads the bundled rank file from `folder/ranks` when there is one; otherwise (running the
 * compiled sources in `out/`, as the tests do) from the js-tiktoken package.
 */
export function rankLoaderFor(folder: string): RankLoader {
  return (encoding) => {
    const file = bundledRankPath(folder, encoding);
    return existsSync(file) ? loadRankFile(file) : loadPackageRanks(encoding);
  };
}
