/**
 * The secret mask's cost and its false alarms on ordinary code, against the mask it replaced (a hand list of 16
 * shapes, kept as `legacySecretMask.ts`) in the same run. The inputs are public code that ships with the dev
 * dependencies (TypeScript's DOM declarations, mocha's sources), cut as the mask sees text: previews and results of
 * some kilobytes. A tenth of the pieces carry a credential from gitleaks' test corpus, so the cost of masking is in
 * the figure too. Run alone with `node out/test/bench/secrets.js [--quick]`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { maskSecretsCounted } from '../../src/engine/text/secrets';
import { type BenchRow, median } from './benchRow';
import { maskSecretsCounted as legacyMask } from './legacySecretMask';
import { runAlone } from './runAlone';

const GROUP = 'secret mask';
const ROOT = path.resolve(__dirname, '../../..');
/** Lines of a piece of text the mask is timed on (about what a preview or a mid-sized result holds). */
const PIECE_LINES = 60;
/** Lines of a piece counted for false alarms: small, so one alarm marks a small stretch of code. */
const ALARM_LINES = 20;

function codeFiles(): string[] {
  const files = [path.join(ROOT, 'node_modules/typescript/lib/lib.dom.d.ts')];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.js')) files.push(full);
    }
  };
  walk(path.join(ROOT, 'node_modules/mocha/lib'));
  return files;
}

function pieces(lines: number): string[] {
  return codeFiles().flatMap((file) => {
    const all = fs.readFileSync(file, 'utf8').split('\n');
    const out: string[] = [];
    for (let i = 0; i < all.length; i += lines) out.push(all.slice(i, i + lines).join('\n'));
    return out;
  });
}

function positives(): string[] {
  const cases = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/gitleaks/cases.json'), 'utf8')) as { positives: string[] }[];
  return cases.map((c) => c.positives[0]).filter((p): p is string => p !== undefined);
}

/** Microseconds per call over all inputs, the median of `rounds` passes (the first pass warms up). */
function perCall(mask: (text: string) => unknown, inputs: readonly string[], rounds: number): number {
  mask(inputs[0]);
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (const text of inputs) mask(text);
    times.push(Number(process.hrtime.bigint() - start) / 1e3 / inputs.length);
  }
  return median(times);
}

export async function benchSecrets(quick: boolean): Promise<BenchRow[]> {
  const secrets = positives();
  const timed = pieces(PIECE_LINES)
    .slice(0, quick ? 150 : 1_500)
    .map((piece, i) => (i % 10 === 0 ? `${piece}\n${secrets[i % secrets.length]}` : piece));
  const rounds = quick ? 3 : 7;
  const now = perCall(maskSecretsCounted, timed, rounds);
  const before = perCall(legacyMask, timed, rounds);
  const alarmPieces = pieces(ALARM_LINES);
  const alarms = alarmPieces.filter((p) => maskSecretsCounted(p).masked > 0).length;
  const legacyAlarms = alarmPieces.filter((p) => legacyMask(p).masked > 0).length;
  const kib = timed.reduce((sum, t) => sum + t.length, 0) / timed.length / 1024;
  return [
    {
      group: GROUP,
      name: 'cost per call',
      value: now,
      unit: 'µs',
      baseline: before,
      ratio: before / now,
      note: `${timed.length} pieces of public code of ${kib.toFixed(1)} KiB on average, one in ten with a credential; baseline: the hand-list mask it replaced`,
    },
    {
      group: GROUP,
      name: 'ordinary code masked',
      value: (100 * alarms) / alarmPieces.length,
      unit: '%',
      baseline: (100 * legacyAlarms) / alarmPieces.length,
      goal: '≤ 1%',
      met: alarms / alarmPieces.length <= 0.01,
      note:
        `${alarms} of ${alarmPieces.length} pieces of ${ALARM_LINES} lines (TypeScript's DOM declarations, mocha) had anything ` +
        `masked; the old mask: ${legacyAlarms}`,
    },
  ];
}

runAlone(module, benchSecrets);
