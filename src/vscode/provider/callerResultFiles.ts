/**
 * Reads the files a caller wrote its large tool results to (`CallerFiles`), only where such files belong: inside a
 * workspace folder or inside the caller's own storage (Copilot Chat's `chat-session-resources`, in its workspace or
 * global storage folder). The path is resolved through links first, so a link cannot lead out. Large, binary and
 * missing files are refused with a plain reason.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { CallerFileRead, CallerFiles } from '../../engine/host/ports';

/** Bytes read at most: Copilot writes results above 8 KB; far larger ones are refused rather than held in memory. */
export const MAX_CALLER_FILE_BYTES = 20 * 1024 * 1024;
/** Bytes looked at for a NUL, which no text result holds. */
const BINARY_SNIFF_BYTES = 8 * 1024;

export class CallerResultFiles implements CallerFiles {
  /** `roots`: the folders such files may be in, asked again on each read (workspace folders change). */
  constructor(
    private readonly roots: () => readonly string[],
    private readonly maxBytes = MAX_CALLER_FILE_BYTES,
  ) {}

  async readResultFile(file: string): Promise<CallerFileRead> {
    if (!path.isAbsolute(file)) return { problem: `${file} is not an absolute path` };
    const real = await fs.realpath(file).catch(() => undefined);
    if (real === undefined) return { problem: `${file} does not exist` };
    const roots = await Promise.all(this.roots().map((r) => fs.realpath(r).catch(() => undefined)));
    if (!roots.some((root) => root !== undefined && isInside(real, root))) {
      return { problem: `${file} is neither in the workspace nor in the caller's storage, so ctx does not read it` };
    }
    const stat = await fs.stat(real);
    if (!stat.isFile()) return { problem: `${file} is not a file` };
    if (stat.size > this.maxBytes) return { problem: `${file} is ${stat.size} bytes, over the ${this.maxBytes} ctx reads` };
    const bytes = await fs.readFile(real);
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { problem: `${file} is binary, not text` };
    return { text: new TextDecoder().decode(bytes) };
  }
}

/** The folders of a caller's own storage beside ctx's: `GitHub.copilot-chat` next to ctx's storage folders. */
export function callerStorageRoots(ctxStorageFolders: readonly string[]): string[] {
  return ctxStorageFolders.flatMap((folder) =>
    ['GitHub.copilot-chat', 'github.copilot-chat'].map((name) => path.join(path.dirname(folder), name)),
  );
}

function isInside(file: string, root: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
