/** Reads the real dev transcripts (test/fixtures/transcripts/set1) as test text. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TRANSCRIPTS_FOLDER } from '../support/repository';
import { seededRandom } from './seededRandom';

export { TRANSCRIPTS_FOLDER };

/** Transcript files (every format), sorted; empty when the folder is missing. */
export function transcriptFiles(): string[] {
  if (!fs.existsSync(TRANSCRIPTS_FOLDER)) return [];
  return fs
    .readdirSync(TRANSCRIPTS_FOLDER)
    .filter((name) => /\.(jsonl|json|traj)$/.test(name) && !/^(manifest|probes)/.test(name))
    .sort()
    .map((name) => path.join(TRANSCRIPTS_FOLDER, name));
}

/** Every string value inside a JSON value: message text, tool inputs and outputs, metadata. */
function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) value.forEach((item) => collectStrings(item, into));
  else if (typeof value === 'object' && value !== null) Object.values(value).forEach((item) => collectStrings(item, into));
}

/**
 * The string contents of a transcript, JSON-decoded (so real newlines, quotes and Unicode),
 * up to about `maxChars` in total. JSONL files are read line by line.
 */
export function transcriptStrings(file: string, maxChars: number): string[] {
  const raw = fs.readFileSync(file, 'utf8');
  const documents = file.endsWith('.jsonl') ? raw.split('\n').filter((line) => line.trim() !== '') : [raw];
  const strings: string[] = [];
  let total = 0;
  for (const document of documents) {
    const found: string[] = [];
    try {
      collectStrings(JSON.parse(document), found);
    } catch {
      continue;
    }
    for (const text of found) {
      if (total >= maxChars) return strings;
      strings.push(text);
      total += text.length;
    }
  }
  return strings;
}

/**
 * The file's raw text (up to `maxChars`) cut into chunks of 4–20 KB at seeded random offsets,
 * which also splits surrogate pairs now and then: lone surrogates must count the same too.
 */
export function rawChunks(file: string, maxChars: number, seed: number): string[] {
  const text = fs.readFileSync(file, 'utf8').slice(0, maxChars);
  const random = seededRandom(seed);
  const chunks: string[] = [];
  for (let at = 0; at < text.length;) {
    const size = 4_000 + Math.floor(random() * 16_000);
    chunks.push(text.slice(at, at + size));
    at += size;
  }
  return chunks;
}
