/** The shared real transcripts, imported. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import type { Message } from '../../../src/engine/types';
import { TRANSCRIPTS_FOLDER } from '../support/repository';

/** The messages of each session of a transcript file. */
export function importedSessions(file: string): Message[][] {
  return importTranscript(fs.readFileSync(path.join(TRANSCRIPTS_FOLDER, file), 'utf8')).sessions.map((s) => s.messages);
}

/** Every message of every session of a transcript file. */
export function importedMessages(file: string): Message[] {
  return importedSessions(file).flat();
}
