/**
 * The folder a replay writes to. It must be new, empty or an earlier replay's: a replay never
 * writes into a folder that holds something else, and replacing an earlier replay removes only
 * what a replay wrote.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { SESSIONS_FOLDER } from '../engine/session/sessionPaths';
import { InputError } from './cliErrors';
import { fileSystemReason } from './readTranscriptFile';

/** The final context, as Markdown. */
export const CONTEXT_FILE = 'context.md';
/** The replay's figures; its presence marks a folder as an earlier replay's. */
export const FIGURES_FILE = 'replay.json';

/** Creates the folder, or empties an earlier replay's; throws an `InputError` for any other folder. */
export async function prepareOutputFolder(folder: string): Promise<void> {
  const entries = await existingEntries(folder);
  if (entries === undefined || entries.length === 0) {
    await fs.mkdir(folder, { recursive: true }).catch((e: unknown) => {
      throw new InputError(`Cannot create ${folder}: ${fileSystemReason(e)}.`);
    });
    return;
  }
  if (!entries.includes(FIGURES_FILE)) {
    throw new InputError(
      `${folder} is not empty and holds no earlier replay (no ${FIGURES_FILE}); choose a new or empty folder for --out.`,
    );
  }
  for (const name of [SESSIONS_FOLDER, CONTEXT_FILE, FIGURES_FILE]) await fs.rm(path.join(folder, name), { recursive: true, force: true });
}

/** The folder's entries, or undefined when it does not exist. */
async function existingEntries(folder: string): Promise<string[] | undefined> {
  try {
    const stat = await fs.stat(folder);
    if (!stat.isDirectory()) throw new InputError(`${folder} is a file; --out needs a folder.`);
    return await fs.readdir(folder);
  } catch (e) {
    if (e instanceof InputError) throw e;
    if ((e as { code?: unknown }).code === 'ENOENT') return undefined;
    throw new InputError(`Cannot use ${folder} for --out: ${fileSystemReason(e)}.`);
  }
}
