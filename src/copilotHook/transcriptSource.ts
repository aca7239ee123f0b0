/**
 * Which transcript the hook may copy: only a plain file directly in Copilot's own transcripts folder for this
 * workspace (`<Copilot's storage>/transcripts/<session>.jsonl`, Copilot's storage being `GitHub.copilot-chat` beside
 * ctx's, whose `copilot-transcripts` folder is the inbox). The hook input is anyone's text, so the path it names is
 * checked before anything is read: a link (symbolic, or hard: more than one name for the file) could point at a key
 * or a credentials file, and is refused; the file is then opened without following links and checked to be the one
 * that was looked at.
 */
import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/** Copilot Chat's storage folder names (VS Code keeps the extension id's case; older builds lowercased it). */
export const COPILOT_STORAGE_NAMES = ['GitHub.copilot-chat', 'github.copilot-chat'];
/** Copilot's folder of session transcripts inside its storage. */
const TRANSCRIPTS_FOLDER = 'transcripts';

/** Copilot's storage folders beside a folder of ctx's storage. */
export function copilotStorageBeside(ctxStorage: string): string[] {
  return COPILOT_STORAGE_NAMES.map((name) => path.join(path.dirname(ctxStorage), name));
}

/** Copilot's transcripts folders for ctx's inbox (`<ctx's storage>/copilot-transcripts`). */
export function copilotTranscriptFolders(inbox: string): string[] {
  return copilotStorageBeside(path.dirname(path.resolve(inbox))).map((storage) => path.join(storage, TRANSCRIPTS_FOLDER));
}

/** A transcript checked and opened for reading, or why it may not be. */
export type TranscriptSource =
  { readonly ok: true; readonly file: fs.FileHandle; readonly size: number } | { readonly ok: false; readonly why: string };

/** Opens the transcript at `transcriptPath` when it is a plain file of Copilot's transcripts folder for `inbox`. */
export async function openTranscript(transcriptPath: string, inbox: string, maxBytes: number): Promise<TranscriptSource> {
  const resolved = path.resolve(transcriptPath);
  const folders = copilotTranscriptFolders(inbox);
  if (!folders.some((folder) => samePath(path.dirname(resolved), folder))) {
    return { ok: false, why: `${transcriptPath} is not in Copilot's transcripts folder (${folders[0]})` };
  }
  const folder = path.dirname(resolved);
  const real = await fs.realpath(folder).catch(() => undefined);
  if (real === undefined) return { ok: false, why: `no transcript at ${transcriptPath}` };
  if (!samePath(real, folder)) return { ok: false, why: `Copilot's transcripts folder ${folder} is reached through a link` };
  const seen = await fs.lstat(resolved).catch(() => undefined);
  if (seen === undefined) return { ok: false, why: `no transcript at ${transcriptPath}` };
  const problem = fileProblem(seen, maxBytes);
  if (problem) return { ok: false, why: `${transcriptPath} ${problem}` };
  // O_NOFOLLOW where the system has it: a link put in place after the look above is not followed either.
  const file = await fs.open(resolved, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0));
  const opened = await file.stat();
  const changed = opened.ino !== seen.ino || opened.dev !== seen.dev ? 'changed while it was opened' : fileProblem(opened, maxBytes);
  if (changed) {
    await file.close();
    return { ok: false, why: `${transcriptPath} ${changed}` };
  }
  return { ok: true, file, size: opened.size };
}

/** Why a file may not be copied, or undefined. */
function fileProblem(
  stat: { isFile(): boolean; isSymbolicLink(): boolean; nlink: number; size: number },
  maxBytes: number,
): string | undefined {
  if (stat.isSymbolicLink()) return 'is a symbolic link';
  if (!stat.isFile()) return 'is not a file';
  if (stat.nlink > 1) return `is a hard link (the file has ${stat.nlink} names)`;
  if (stat.size > maxBytes) return `is ${stat.size} bytes, over ${maxBytes}`;
  return undefined;
}

/** The same path, ignoring case where the file system usually does (Windows, macOS). */
function samePath(a: string, b: string): boolean {
  const fold = process.platform === 'win32' || process.platform === 'darwin';
  return fold ? a.toLowerCase() === b.toLowerCase() : a === b;
}
