import * as fs from 'node:fs/promises';
import { InputError } from './cliErrors';
import { errorMessage } from '../engine/errors';

/** Reads a transcript file as UTF-8, turning the file system's complaints into plain words. */
export async function readTranscriptFile(path: string): Promise<string> {
  try {
    const stat = await fs.stat(path);
    if (stat.isDirectory()) throw new InputError(`${path} is a folder, not a transcript file.`);
    return await fs.readFile(path, 'utf8');
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`Cannot read ${path}: ${fileSystemReason(e)}.`);
  }
}

/** The reason behind a file system error, without the stack or the syscall jargon. */
export function fileSystemReason(e: unknown): string {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  switch (code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    default:
      return errorMessage(e);
  }
}
