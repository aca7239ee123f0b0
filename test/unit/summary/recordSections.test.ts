import * as assert from 'node:assert/strict';
import type { CommandRecord, ErrorRecord, ToolRecord } from '../../../src/engine/model/ledgerTypes';
import { EMPTY_LEDGER } from '../../../src/engine/model/ledgerTypes';
import { criticalFactsSection, MAX_RECORD_ROWS, progressSection } from '../../../src/engine/summary/recordSections';
import { readConversationFacts } from '../../../src/engine/summary/conversationFacts';
import type { FitSection } from '../../../src/engine/summary/fitLines';
import { seededRandom } from '../tokens/seededRandom';

const NO_FACTS = readConversationFacts([]);

/** The definition: the last occurrence of each key, in the order of those occurrences, the newest rows shown. */
function lastOfEach<T>(items: readonly T[], key: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) {
    byKey.delete(key(item));
    byKey.set(key(item), item);
  }
  return [...byKey.values()].slice(-MAX_RECORD_ROWS);
}

function lines(section: FitSection): string[] {
  return section.groups.flatMap((g) => g.lines.map((l) => l.text));
}

/** A record of many commands and errors, drawn from a small pool so that most repeat. */
function seededRecord(seed: number): ToolRecord {
  const random = seededRandom(seed);
  const pool = 20 + Math.floor(random() * 200);
  const commands: CommandRecord[] = [];
  const errors: ErrorRecord[] = [];
  for (let i = 0; i < 400; i++) {
    const n = Math.floor(random() * pool);
    const ok = random() < 0.6;
    commands.push({ callId: `c${i}`, command: `make target-${n}`, ok, exitCode: ok ? 0 : 2, at: i });
    if (!ok && random() < 0.5) {
      errors.push({ callId: `c${i}`, toolName: 'bash', summary: `error E${n % 37}`, subject: `make target-${n}`, at: i, fixed: false });
    }
  }
  return { ...EMPTY_LEDGER.tools, commands, errors };
}

describe('record sections of a summary', () => {
  it('shows the line breaks of a command of several lines, so it is not read as one line', () => {
    const record: ToolRecord = {
      ...EMPTY_LEDGER.tools,
      commands: [{ callId: 'c1', command: 'edit 12:12\n    total = round(cents / 100, 2)\nend_of_edit', ok: true, at: 1 }],
    };
    const shown = lines(progressSection([], NO_FACTS, record)).join('\n');
    assert.match(shown, /`edit 12:12 ↵ total = round\(cents \/ 100, 2\) ↵ end_of_edit` \(ok\)/);
  });

  it('show each command and error once, as it last happened, the newest rows, over 40 seeded records', () => {
    for (let seed = 0; seed < 40; seed++) {
      const record = seededRecord(900 + seed);
      const progress = lines(progressSection([], NO_FACTS, record));
      const ran = progress.filter((l) => l.includes('Ran ')).map((l) => /`([^`]+)`/.exec(l)?.[1]);
      const expectedRan = lastOfEach(record.commands, (c) => c.command)
        .filter((c) => c.ok)
        .map((c) => c.command);
      assert.deepEqual(ran, expectedRan, `seed ${seed}`);

      const critical = lines(criticalFactsSection(record, []));
      const errorLines = critical.filter((l) => l.startsWith('- bash'));
      const expectedErrors = lastOfEach(record.errors, (e) => `${e.subject ?? ''}\u0000${e.summary}`);
      assert.equal(errorLines.length, expectedErrors.length, `seed ${seed}`);
      expectedErrors.forEach((e, i) =>
        assert.ok(errorLines[i].includes(`${e.summary} —`) && errorLines[i].includes(e.subject ?? ''), `seed ${seed}: ${errorLines[i]}`),
      );
    }
  });

  it("says an error once when the span's fact of it is the tool's own wrapped line, and keeps a fact the record does not hold", () => {
    const summary = 'File has not been read yet. Read it first before writing to it.';
    const record: ToolRecord = {
      ...EMPTY_LEDGER.tools,
      errors: [{ callId: 'e1', toolName: 'Edit', summary, subject: 'docs/GUIDE.md', at: 1, fixed: false }],
    };
    const fact = (key: string) => ({ kind: 'error' as const, key, text: key, messageId: 'm1', score: 0.6 });
    const critical = lines(
      criticalFactsSection(record, [fact(`<tool_use_error>${summary}</tool_use_error>`), fact('ENOSPC: no space left on device, write')]),
    );
    assert.equal(critical.filter((l) => l.includes('has not been read yet')).length, 1, critical.join('\n'));
    assert.ok(critical.some((l) => l.startsWith('- Edit `docs/GUIDE.md`')));
    assert.ok(critical.some((l) => l.includes('ENOSPC: no space left on device')));
  });

  it("shows an error's line as written, its spacing kept and, when long, its cause", () => {
    const aligned = 'E       AssertionError: totals differ';
    const wrapped =
      'Error: import of catalog feed eu-west-3 into warehouse stage-eu-3 aborted after 4 retries: load batch 17: ' +
      'copy rows: insert into stock_levels: null value in column "sku" violates not-null constraint';
    const record: ToolRecord = {
      ...EMPTY_LEDGER.tools,
      errors: [
        { callId: 'e1', toolName: 'bash', summary: aligned, subject: 'pytest -q', at: 1, fixed: false },
        { callId: 'e2', toolName: 'bash', summary: wrapped, subject: './import.sh', at: 2, fixed: false },
      ],
    };
    const critical = lines(criticalFactsSection(record, []));
    assert.ok(
      critical.some((l) => l.includes(aligned)),
      critical.join('\n'),
    );
    const long = critical.find((l) => l.includes('./import.sh'));
    assert.ok(long?.includes('Error: import of catalog feed eu-west-3'), long);
    assert.ok(long?.includes('null value in column "sku" violates not-null constraint'), long);
  });
});
