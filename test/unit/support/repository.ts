/** Where the repository and its real transcripts are, from wherever a compiled test runs (out/…). */
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

/** The real transcripts copied into the repository, one folder per set (see its README.md). */
export const TRANSCRIPT_SETS_FOLDER = path.join(REPOSITORY_ROOT, 'test', 'fixtures', 'transcripts');

/** The first set of real transcripts; CTX_TRANSCRIPTS_DIR points elsewhere. */
export const TRANSCRIPTS_FOLDER = process.env.CTX_TRANSCRIPTS_DIR ?? path.join(TRANSCRIPT_SETS_FOLDER, 'set1');

/**
 * Every set of real transcripts, each a folder with its own manifest.json and probes.dev.json;
 * CTX_TRANSCRIPTS_DIR replaces them all with that one folder.
 */
export const TRANSCRIPT_FOLDERS: readonly string[] =
  process.env.CTX_TRANSCRIPTS_DIR === undefined
    ? ['set1', 'set2'].map((set) => path.join(TRANSCRIPT_SETS_FOLDER, set))
    : [TRANSCRIPTS_FOLDER];
