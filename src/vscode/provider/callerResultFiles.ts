/**
 * Reads the files a caller wrote its large tool results to (`CallerFiles`), only where the caller really wrote one:
 * Copilot Chat writes the result of a call to `<its storage>/chat-session-resources/<session>/<call>/content.txt` (or
 * `content.json`), and nowhere else. A result's text can say anything, so a note naming any other file (the
 * workspace's `.env`, a key in the home folder) is refused, as is a file of another call, a link of any kind (a
 * symbolic link on the way, or a hard link: a file with more than one name), a large, binary or missing file. Each
 * refusal says why in plain words.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { CallerFileRead, CallerFiles } from '../../engine/host/ports';
import { copilotSafeName, RESOURCES_FOLDER } from '../../copilotHook/copilotResultFiles';
import { copilotStorageBeside } from '../../copilotHook/transcriptSource';

/** Bytes read at most: Copilot writes results above 8 KB; far larger ones are refused rather than held in memory. */
export const MAX_CALLER_FILE_BYTES = 20 * 1024 * 1024;
/** Bytes looked at for a NUL, which no text result holds. */
const BINARY_SNIFF_BYTES = 8 * 1024;
/** The names Copilot gives a written result. */
const CONTENT_FILES: readonly string[] = ['content.txt', 'content.json'];
/** The suffix VS Code may add to a call id; a call's folder may carry it while the id does not, or the other way. */
const VSCODE_CALL_SUFFIX = /__vscode-.*$/;

export class CallerResultFiles implements CallerFiles {
  /** `storageRoots`: the caller's storage folders (Copilot's, beside ctx's), each holding its resources folder. */
  constructor(
    private readonly storageRoots: () => readonly string[],
    private readonly maxBytes = MAX_CALLER_FILE_BYTES,
  ) {}

  async readResultFile(file: string, callId: string): Promise<CallerFileRead> {
    if (!path.isAbsolute(file)) return { problem: `${file} is not an absolute path` };
    const place = this.placeOf(path.resolve(file));
    if (place === undefined) return { problem: `${file} is not a result file the caller wrote, so ctx does not read it` };
    if (!sameCall(place.callFolder, callId)) return { problem: `${file} is the result file of another tool call, so ctx does not read it` };
    // No link anywhere below the storage folder: what the caller wrote is a plain folder, a plain folder and a file.
    for (const step of [place.session, place.call, place.file]) {
      const stat = await fs.lstat(step).catch(() => undefined);
      if (stat === undefined) return { problem: `${file} does not exist` };
      if (stat.isSymbolicLink()) return { problem: `${file} goes through a link, so ctx does not read it` };
    }
    const handle = await fs.open(place.file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0)).catch(() => undefined);
    if (handle === undefined) return { problem: `${file} cannot be opened` };
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { problem: `${file} is not a file` };
      if (stat.nlink > 1) return { problem: `${file} has other names (a hard link), so ctx does not read it` };
      if (stat.size > this.maxBytes) return { problem: `${file} is ${stat.size} bytes, over the ${this.maxBytes} ctx reads` };
      const bytes = await handle.readFile();
      if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { problem: `${file} is binary, not text` };
      return { text: new TextDecoder().decode(bytes) };
    } finally {
      await handle.close();
    }
  }

  /** The parts of a path in a resources folder, `<root>/chat-session-resources/<session>/<call>/content.*`; else undefined. */
  private placeOf(file: string): ResultPlace | undefined {
    for (const root of this.storageRoots()) {
      const resources = path.join(path.resolve(root), RESOURCES_FOLDER);
      const parts = path.relative(resources, file).split(path.sep);
      if (parts.length !== 3 || parts.some((p) => p === '' || p === '..' || p === '.')) continue;
      const [session, call, name] = parts;
      if (!CONTENT_FILES.includes(name)) continue;
      const sessionFolder = path.join(resources, session);
      const callFolder = path.join(sessionFolder, call);
      return { session: sessionFolder, call: callFolder, file: path.join(callFolder, name), callFolder: call };
    }
    return undefined;
  }
}

interface ResultPlace {
  readonly session: string;
  readonly call: string;
  readonly file: string;
  /** The call folder's name. */
  readonly callFolder: string;
}

/** Whether a call folder is the one Copilot names for this call id. */
function sameCall(folder: string, callId: string): boolean {
  return folder.replace(VSCODE_CALL_SUFFIX, '') === copilotSafeName(callId).replace(VSCODE_CALL_SUFFIX, '');
}

/** The folders of a caller's own storage beside ctx's: `GitHub.copilot-chat` next to ctx's storage folders. */
export function callerStorageRoots(ctxStorageFolders: readonly string[]): string[] {
  return ctxStorageFolders.flatMap(copilotStorageBeside);
}
