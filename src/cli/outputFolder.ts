/**
 * The folder a replay writes to. It must be new, empty or an earlier replay's: a replay never
 * writes into a folder that holds something else, and replacing an earlier replay removes only
 * what a replay wrote. One replay at a time: the folder's lock names the replay writing it.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { SESSIONS_FOLDER } from '../engine/session/sessionPaths';
import type { Store } from '../engine/ports';
import { WriterLock, WriterLockedError } from '../engine/storage/writerLock';
import { InputError } from './cliErrors';
import { fileSystemReason } from './readTranscriptFile';

/** The final context, as Markdown. */
export const CONTEXT_FILE = 'context.md';
/** The replay's figures; its presence marks a folder as an earlier replay's. */
export const FIGURES_FILE = 'replay.json';
/** Held while a replay writes the folder. */
export const REPLAY_LOCK_FILE = 'replay.lock';

/**
 * Creates the folder (or finds it empty or an earlier replay's), takes its lock, and empties an
 * earlier replay's files. Throws an `InputError` for any other folder, and when another replay is
 * writing it. The caller releases the lock.
 */
export async function prepareOutputFolder(folder: string, store: Store): Promise<WriterLock> {
  // A replay still writing the folder is what the user needs to hear about, before what it holds so far.
  const locked = (await existingEntries(folder))?.includes(REPLAY_LOCK_FILE) === true;
  if (!locked) await checkOutputFolder(folder);
  await fs.mkdir(folder, { recursive: true }).catch((e: unknown) => {
    throw new InputError(`Cannot create ${folder}: ${fileSystemReason(e)}.`);
  });
  const lock = await WriterLock.acquire({ store, path: REPLAY_LOCK_FILE, purpose: 'Another ctx replay' }).catch((e: unknown) => {
    if (e instanceof WriterLockedError) {
      throw new InputError(`Cannot replay into ${folder}: ${e.message} Wait for it to end, or choose another --out.`);
    }
    throw new InputError(`Cannot use ${folder} for --out: ${fileSystemReason(e)}.`);
  });
  try {
    if (locked) await checkOutputFolder(folder);
  } catch (e) {
    await lock.release().catch(() => undefined);
    throw e;
  }
  try {
    for (const name of [SESSIONS_FOLDER, CONTEXT_FILE, FIGURES_FILE]) {
      await fs.rm(path.join(folder, name), { recursive: true, force: true });
    }
  } catch (e) {
    await lock.release().catch(() => undefined);
    throw new InputError(`Cannot empty the earlier replay in ${folder}: ${fileSystemReason(e)}.`);
  }
  return lock;
}

/** Throws unless the folder is missing, empty (but for a replay's lock) or an earlier replay's. */
async function checkOutputFolder(folder: string): Promise<void> {
  const entries = (await existingEntries(folder))?.filter((name) => name !== REPLAY_LOCK_FILE);
  if (entries === undefined || entries.length === 0 || entries.includes(FIGURES_FILE)) return;
  throw new InputError(`${folder} is not empty and holds no earlier replay (no ${FIGURES_FILE}); choose a new or empty folder for --out.`);
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
