import * as assert from 'node:assert/strict';
import { EMPTY_LEDGER, type CommandRecord, type ErrorRecord, type ToolRecord } from '../../../src/engine/model/ledgerTypes';
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

  it('says an error that several calls of one tool hit alike once, with what they were about, and keeps other errors apart', () => {
    const rejected = 'Command rejected because it could not be parsed safely';
    const errors: ErrorRecord[] = [
      ...['echo hello', 'dir', 'Get-Date', 'ls', 'python --version'].map((subject, i) => ({
        callId: `c${i}`,
        toolName: 'run_shell_command',
        summary: rejected,
        subject,
        at: i,
        fixed: false,
      })),
      { callId: 'c9', toolName: 'read_file', summary: rejected, subject: 'notes.md', at: 9, fixed: false },
      { callId: 'c10', toolName: 'run_shell_command', summary: 'exit 2: no such file', subject: 'cat x', at: 10, fixed: false },
      { callId: 'c11', toolName: 'run_shell_command', summary: rejected, subject: 'pwd', at: 11, fixed: true, fixedBy: 'pwd' },
    ];
    const sections = recordSections({ ...EMPTY_LEDGER.tools, errors });
    const lines = sections.sections.find((s) => s.id === 'errors')?.lines ?? [];
    const grouped = lines.filter((l) => l.includes('run_shell_command') && l.includes(rejected) && l.startsWith('- ❌'));
    assert.deepEqual(grouped, [`- ❌ run_shell_command (5 calls) on \`python --version\`, \`ls\`, \`Get-Date\` and 2 more: ${rejected}`]);
    assert.ok(lines.includes(`- ❌ read_file on \`notes.md\`: ${rejected}`), lines.join('\n'));
    assert.ok(lines.includes('- ❌ run_shell_command on `cat x`: exit 2: no such file'), lines.join('\n'));
    assert.ok(
      lines.some((l) => l.startsWith('- ✔️ run_shell_command on `pwd`')),
      lines.join('\n'),
    );
    assert.equal(lines.length, 4);
    assert.deepEqual(sections.ranked[0], { section: 'errors', count: 3 });
  });

  it('says a fixed error that several calls hit alike on the same thing once, with the latest fix, and keeps other things apart', () => {
    const missing = 'String to replace not found in file.';
    const fixedEdit = (i: number, subject: string): ErrorRecord => ({
      callId: `e${i}`,
      toolName: 'Edit',
      summary: missing,
      subject,
      at: i,
      fixed: true,
      fixedBy: '',
      fixedByCallId: `e${i}-fix`,
    });
    const errors = [fixedEdit(1, 'src/tab.tsx'), fixedEdit(2, 'src/tab.tsx'), fixedEdit(3, 'src/tab.tsx'), fixedEdit(4, 'src/list.tsx')];
    const lines = recordSections({ ...EMPTY_LEDGER.tools, errors }).sections.find((s) => s.id === 'errors')?.lines ?? [];
    assert.deepEqual(lines, [
      `- ✔️ Edit on \`src/list.tsx\`: ${missing}; fixed by a later successful call (e4-fix)`,
      `- ✔️ Edit (3 calls) on \`src/tab.tsx\`: ${missing}; fixed by a later successful call (e3-fix)`,
    ]);
  });
});
