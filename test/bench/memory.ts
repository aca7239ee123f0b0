/**
 * Peak heap of a replay of the largest dev transcript, measured in a child process of its own
 * (memoryChild.ts) so that nothing else counts. The baseline is the heap just before the replay:
 * the tokenizer built and the transcript imported, which any replay needs anyway.
 * Run alone with `node out/test/bench/memory.js [--quick]`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { transcriptPath } from '../unit/import/realTranscripts';
import { median, type BenchRow } from './benchRow';
import type { MemoryFigures } from './memoryChild';
import { largestTranscriptFile, shortName } from './replayFixtures';
import { runAlone } from './runAlone';

const GROUP = 'memory';
const MB = 1024 * 1024;

function runChild(file: string): MemoryFigures {
  const child = spawnSync(process.execPath, ['--expose-gc', path.join(__dirname, 'memoryChild.js'), file], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`memoryChild failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop() ?? '') as MemoryFigures;
}

export async function benchMemory(quick = false): Promise<BenchRow[]> {
  const file = largestTranscriptFile();
  const runs = Array.from({ length: quick ? 1 : 3 }, () => runChild(file));
  const pick = (key: keyof MemoryFigures) => median(runs.map((r) => r[key])) / MB;
  const before = pick('before');
  const peak = pick('peak');
  const retained = pick('retained');
  const fileMb = fs.statSync(transcriptPath(file)).size / MB;
  const about = `${shortName(file)}, ${fileMb.toFixed(1)} MB file; median of ${runs.length} child processes`;
  return [
    {
      group: GROUP,
      name: 'peak heap during a replay of the largest transcript',
      value: peak,
      unit: 'MB',
      baseline: before,
      ratio: peak / before,
      note:
        `${about}; sampled after every message; ` +
        `baseline: heap just before the replay (tokenizer built, transcript imported); ratio: peak / baseline, lower is better`,
    },
    {
      group: GROUP,
      name: 'heap retained after the replay',
      value: retained,
      unit: 'MB',
      baseline: before,
      ratio: retained / before,
      note: 'after a full collection, the session still open; ratio: retained / baseline',
    },
    { group: GROUP, name: 'peak resident set size of the replay process', value: pick('maxRss'), unit: 'MB', note: about },
  ];
}

runAlone(module, benchMemory);
