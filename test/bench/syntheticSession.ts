/**
 * A long agent session built to size, for scaling benchmarks: a user request now and then, and
 * in between the assistant's rounds of text and one tool call each (reading files, running
 * commands, writing files), with results of a few hundred to a few thousand tokens and now and
 * then one large enough to offload. Seeded, so every run builds the same session.
 */
import { message, textBlock, toolCallBlock, toolResultBlock, type Message } from '../../src/engine/types';
import { seededRandom } from '../unit/tokens/seededRandom';

const WORDS = (
  'the a function returns value error config module test build request response file path line user session ' +
  'context token budget cache index record query handler server client parse render update delete create ' +
  'check assert expect result output input stream buffer event listener option default setting schema type'
).split(' ');

/** One user request every this many messages. */
const USER_EVERY = 40;

/** How long the tool results are, in lines of about 14 tokens. */
export interface ResultSizes {
  /** The shortest ordinary result. */
  readonly minLines: number;
  /** Ordinary results are up to this many lines longer than the shortest. */
  readonly spreadLines: number;
  /** One result in `largeEvery` has this many lines: enough to offload. */
  readonly largeLines: number;
  readonly largeEvery: number;
}

/** Results of a few hundred to a few thousand tokens, one in 25 of about 22,000. */
export const HEAVY_RESULTS: ResultSizes = { minLines: 20, spreadLines: 150, largeLines: 1600, largeEvery: 25 };
/** Results of about a hundred to five hundred tokens, one in 40 of about 17,000: about 350 tokens a message. */
export const TYPICAL_RESULTS: ResultSizes = { minLines: 5, spreadLines: 30, largeLines: 1200, largeEvery: 40 };

/** A session of `count` messages (start time `start`, one second apart). */
export function syntheticSession(count: number, seed = 7, start = Date.UTC(2026, 0, 1), sizes: ResultSizes = HEAVY_RESULTS): Message[] {
  const random = seededRandom(seed);
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  const lines = (n: number, width: number) => Array.from({ length: n }, (_, i) => `${i + 1}: ${words(width)}`).join('\n');
  const out: Message[] = [];
  let call = 0;
  while (out.length < count) {
    const at = start + out.length * 1000;
    const i = out.length;
    if (i % USER_EVERY === 0) {
      out.push(message(`u${i}`, 'user', [textBlock(`Please ${words(12)} in src/module${i % 17}.ts and run the tests.`)], at));
      continue;
    }
    call++;
    const id = `call-${call}`;
    const kind = call % 3;
    const path = `src/module${call % 23}.ts`;
    const name = kind === 0 ? 'read_file' : kind === 1 ? 'run_command' : 'write_file';
    const input =
      kind === 0
        ? { path }
        : kind === 1
          ? { command: `npm test -- --grep ${WORDS[call % WORDS.length]}` }
          : { path, content: lines(30, 8) };
    out.push(message(`a${i}`, 'assistant', [textBlock(`I'll ${words(10)}.`), toolCallBlock(id, name, input)], at));
    if (out.length >= count) break;
    const size = call % sizes.largeEvery === 0 ? sizes.largeLines : sizes.minLines + Math.floor(random() * sizes.spreadLines);
    const failed = kind === 1 && random() < 0.2;
    const content = failed ? `Error: ${words(8)}\n${lines(size, 10)}\nexit code 1` : lines(size, 10);
    out.push(message(`t${i + 1}`, 'tool', [toolResultBlock(id, content, failed, name)], at + 500));
  }
  return out;
}
