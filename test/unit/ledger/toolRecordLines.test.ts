import * as assert from 'node:assert/strict';
import { EMPTY_LEDGER, type CommandRecord, type ToolRecord } from '../../../src/engine/model/ledgerTypes';
import { recordSections } from '../../../src/engine/ledger/toolRecordLines';
import { seededRandom } from '../tokens/seededRandom';

const record = (commands: readonly CommandRecord[]): ToolRecord => ({ ...EMPTY_LEDGER.tools, commands });
const commandLines = (commands: readonly CommandRecord[]) =>
  recordSections(record(commands)).sections.find((s) => s.id === 'commands')?.lines ?? [];

/** Each command once, its latest run first by time (the later entry first at equal times), with its number of runs. */
function expected(commands: readonly CommandRecord[]): string[] {
  const newest = commands.map((c, i) => ({ c, i })).sort((a, b) => b.c.at - a.c.at || b.i - a.i);
  const byText = new Map<string, { command: CommandRecord; runs: number }>();
  for (const { c } of newest) {
    const seen = byText.get(c.command);
    if (seen) seen.runs++;
    else byText.set(c.command, { command: c, runs: 1 });
  }
  return [...byText.values()].map(({ command, runs }) => `${command.command}|${runs}|${command.ok ? 'ok' : 'failed'}`);
}

/** A rendered command line read back: its command, its runs and its status. */
function readLine(line: string): string {
  const match = /^- `(.+?)`(?: \((\d+) runs\))? → (ok|failed)$/.exec(line);
  assert.ok(match, line);
  return `${match[1]}|${match[2] ?? '1'}|${match[3]}`;
}

describe('tool record lines', () => {
  it('lists each command once as it last ran, with its runs, however its runs came and went', () => {
    const random = seededRandom(11);
    let commands: CommandRecord[] = [];
    let at = 0;
    let call = 0;
    for (let step = 0; step < 600; step++) {
      // Records are never changed in place: each step is a new list.
      commands = [...commands];
      const added = 1 + Math.floor(random() * 3);
      for (let i = 0; i < added; i++) {
        // Mostly later, sometimes at the same time, now and then earlier (a record out of time order).
        at += random() < 0.01 ? -Math.floor(random() * 5) : random() < 0.2 ? 0 : 1;
        commands.push({ callId: `c${++call}`, command: `npm run task-${Math.floor(random() * 12)}`, ok: random() < 0.8, at });
      }
      if (commands.length > 30) commands = commands.slice(commands.length - 30);
      assert.deepEqual(commandLines(commands).map(readLine), expected(commands), `step ${step}`);
    }
  });
});
