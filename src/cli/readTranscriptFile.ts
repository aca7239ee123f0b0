import * as fs from 'node:fs/promises';
import { REASON_WORDS, storageReasonOf } from '../engine/storage/storageError';
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

/** The reason behind a file system error in plain words, without the stack or the syscall jargon. */
export function fileSystemReason(e: unknown): string {
  const reason = storageReasonOf(e);
  if (reason !== 'other') return REASON_WORDS[reason];
  return errorMessage(e);
}
