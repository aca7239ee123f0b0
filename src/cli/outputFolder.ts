/**
 * The folder a replay writes to. It must be new, empty or an earlier replay's: a replay never
 * writes into a folder that holds something else, and replacing an earlier replay removes only
 * what a replay wrote. One replay at a time: the folder's lock names the replay writing it.
 * A replay cut short (killed, or stopped by a full disk) left no figures but its marker or its
 * lock, or only a replay's sessions folder: it is an earlier replay's too, and is started over.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Store } from '../engine/host/ports';
import { isSessionId, SESSIONS_FOLDER, WriterLock, WriterLockedError } from '../engine/host/storage';
import { InputError } from './cliErrors';
import { fileSystemReason } from './readTranscriptFile';

/** The final context, as Markdown. */
export const CONTEXT_FILE = 'context.md';
/** The replay's figures; its presence marks a folder as an earlier replay's. */
export const FIGURES_FILE = 'replay.json';
/** Held while a replay writes the folder. */
export const REPLAY_LOCK_FILE = 'replay.lock';
/** Written when a replay starts and removed once its figures are written: a replay cut short leaves it. */
export const REPLAY_MARKER_FILE = 'replay.unfinished';
/** Everything a replay writes into its folder. */
const REPLAY_ENTRIES: readonly string[] = [SESSIONS_FOLDER, CONTEXT_FILE, FIGURES_FILE, REPLAY_LOCK_FILE, REPLAY_MARKER_FILE];

/** The folder's lock, and whether an earlier replay there was cut short and is started over. */
export interface PreparedOutput {
  readonly lock: WriterLock;
  readonly restarted: boolean;
}

/**
 * Creates the folder (or finds it empty or an earlier replay's), takes its lock, and empties an
 * earlier replay's files. Throws an `InputError` for any other folder, and when another replay is
 * writing it. The caller releases the lock.
 */
export async function prepareOutputFolder(folder: string, store: Store): Promise<PreparedOutput> {
  // A replay still writing the folder is what the user needs to hear about, before what it holds so far.
  const locked = (await existingEntries(folder))?.includes(REPLAY_LOCK_FILE) === true;
  let restarted = locked ? false : await checkOutputFolder(folder);
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
    if (locked) restarted = await checkOutputFolder(folder, true);
  } catch (e) {
    await lock.release().catch(() => undefined);
    throw e;
  }
  try {
    for (const name of [SESSIONS_FOLDER, CONTEXT_FILE, FIGURES_FILE, REPLAY_MARKER_FILE]) {
      await fs.rm(path.join(folder, name), { recursive: true, force: true });
    }
    await fs.writeFile(
      path.join(folder, REPLAY_MARKER_FILE),
      `A ctx replay started here at ${new Date().toISOString()} and has not finished.\n`,
    );
  } catch (e) {
    await lock.release().catch(() => undefined);
    throw new InputError(`Cannot empty the earlier replay in ${folder}: ${fileSystemReason(e)}.`);
  }
  return { lock, restarted };
}

/** Marks the replay in the folder finished: called once its figures are written. */
export async function finishOutputFolder(folder: string): Promise<void> {
  await fs.rm(path.join(folder, REPLAY_MARKER_FILE), { force: true });
}

/**
 * Throws unless the folder is missing, empty (but for a replay's lock) or an earlier replay's;
 * true when that replay was cut short. `lockFound`: the folder held a replay's lock when looked at.
 */
async function checkOutputFolder(folder: string, lockFound = false): Promise<boolean> {
  const entries = (await existingEntries(folder))?.filter((name) => name !== REPLAY_LOCK_FILE);
  if (entries === undefined || entries.length === 0 || entries.includes(FIGURES_FILE)) return false;
  if (entries.every((name) => REPLAY_ENTRIES.includes(name))) {
    // Only session folders in sessions/, whatever else says a replay was here: nothing of the user's is removed.
    const sessions = entries.includes(SESSIONS_FOLDER) ? await holdsOnlySessions(path.join(folder, SESSIONS_FOLDER)) : undefined;
    if (sessions !== false && (lockFound || entries.includes(REPLAY_MARKER_FILE) || sessions === true)) return true;
  }
  throw new InputError(`${folder} is not empty and holds no earlier replay (no ${FIGURES_FILE}); choose a new or empty folder for --out.`);
}

/** True when the folder holds session folders only (what a replay cut short by an older ctx leaves). */
async function holdsOnlySessions(folder: string): Promise<boolean> {
  const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => undefined);
  return entries !== undefined && entries.length > 0 && entries.every((e) => e.isDirectory() && isSessionId(e.name));
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
