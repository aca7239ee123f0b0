import { createReadStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import { errorMessage } from '../engine/host/display';
import { storageReasonWords } from '../engine/host/storage';
import { InputError } from './cliErrors';
import { parseTranscriptChunks } from './import/parseTranscriptChunks';
import type { ParsedTranscript } from './import/parseTranscriptText';

/** Chunks a transcript is streamed in: large enough to read quickly, small beside any transcript worth streaming. */
const CHUNK_BYTES = 1024 * 1024;

/** Reads a transcript file as UTF-8, turning the file system's complaints into plain words. */
export async function readTranscriptFile(path: string): Promise<string> {
  await checkIsFile(path);
  return inPlainWords(path, () => fs.readFile(path, 'utf8'));
}

/**
 * Reads and parses a transcript file as it streams in (see `parseTranscriptChunks`): what
 * `parseTranscriptText` gives for its text, without holding the whole text of a JSON Lines file.
 * File system problems become `InputError`s in plain words; the parser's errors are thrown as they are.
 */
export async function readTranscriptRecords(path: string): Promise<ParsedTranscript> {
  await checkIsFile(path);
  return parseTranscriptChunks(fileChunks(path), () => readTranscriptFile(path));
}

async function* fileChunks(path: string): AsyncGenerator<string> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: CHUNK_BYTES });
  const chunks = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = (await inPlainWords(path, () => chunks.next())) as IteratorResult<string>;
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    stream.destroy();
  }
}

async function checkIsFile(path: string): Promise<void> {
  const stat = await inPlainWords(path, () => fs.stat(path));
  if (stat.isDirectory()) throw new InputError(`${path} is a folder, not a transcript file.`);
}

async function inPlainWords<T>(path: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    throw new InputError(`Cannot read ${path}: ${fileSystemReason(e)}.`);
  }
}

/** The reason behind a file system error in plain words, without the stack or the syscall jargon. */
export function fileSystemReason(e: unknown): string {
  return storageReasonWords(e) ?? errorMessage(e);
}
