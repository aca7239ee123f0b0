/** Where the repository and the shared transcripts are, from wherever a compiled test runs (out/…). */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The first folder above this file with a package.json. */
export const REPOSITORY_ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${__dirname}`);
    dir = parent;
  }
  return dir;
})();

/**
 * The shared transcripts sit beside the repository (<root>/../shared/data/transcripts);
 * CTX_TRANSCRIPTS_DIR points elsewhere.
 */
export const TRANSCRIPTS_FOLDER = process.env.CTX_TRANSCRIPTS_DIR ?? path.resolve(REPOSITORY_ROOT, '..', 'shared', 'data', 'transcripts');
