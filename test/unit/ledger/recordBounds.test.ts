import * as assert from 'node:assert/strict';
import { withOffloaded } from '../../../src/engine/ledger/ledgerEdits';
import { EMPTY_LEDGER } from '../../../src/engine/model/ledgerTypes';
import { RangeRecord } from '../../../src/engine/ledger/rangeRecords';
import { RECORD_LIMITS, recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { recordSections } from '../../../src/engine/ledger/toolRecordLines';
import type { Message } from '../../../src/engine/types';
import { call, result } from '../support/builders';

/** `n` commands, every fifth one failing and never fixed, each in its own call and result. */
function commandRun(n: number, first = 0): Message[] {
  return Array.from({ length: n }, (_, k) => {
    const i = first + k;
    const failing = i % 5 === 0;
    return [
      { ...call(`c${i}`, 'Bash', { command: `./step-${i}.sh` }), at: i },
      { ...result(`c${i}`, failing ? `Error: step ${i} broke\nexit code 2` : `step ${i} done`, failing), at: i },
    ];
  }).flat();
}

describe('the tool record in a long session', () => {
  it('lists the newest offloaded results within its limit, and a result offloaded again keeps its place', () => {
    const entry = (i: number, tokens = 20_000) => ({ callId: `c${i}`, toolName: 'fetch', file: `offloaded/c${i}.txt`, tokens });
    let ledger = EMPTY_LEDGER;
    for (let i = 0; i < RECORD_LIMITS.offloaded + 30; i++) ledger = withOffloaded(ledger, [entry(i)]);
    const listed = ledger.tools.offloaded;
    assert.equal(listed.length, RECORD_LIMITS.offloaded);
    assert.equal(listed[0].callId, 'c30');
    assert.equal(listed[listed.length - 1].callId, `c${RECORD_LIMITS.offloaded + 29}`);
    const again = withOffloaded(ledger, [entry(60, 5)]).tools.offloaded;
    assert.equal(again.length, RECORD_LIMITS.offloaded);
    assert.equal(again.find((e) => e.callId === 'c60')?.tokens, 5);
  });

  it('keeps the newest commands within its limit; the oldest are left to the archive', () => {
    const record = recordToolActivity(commandRun(RECORD_LIMITS.commands + 50));
    assert.equal(record.commands.length, RECORD_LIMITS.commands);
    assert.equal(record.commands[0].command, './step-50.sh');
    assert.equal(record.commands[record.commands.length - 1].command, `./step-${RECORD_LIMITS.commands + 49}.sh`);
  });

  it('keeps unfixed errors before fixed ones when errors are over the limit', () => {
    const messages: Message[] = [];
    // Errors on one script each, every other one fixed by a later successful run of the same script.
    for (let i = 0; i < RECORD_LIMITS.errors * 2; i++) {
      messages.push(
        { ...call(`e${i}`, 'Bash', { command: `./job-${i}.sh` }), at: i },
        { ...result(`e${i}`, `Error: job ${i} failed`, true), at: i },
      );
      if (i % 2 === 0) {
        messages.push({ ...call(`f${i}`, 'Bash', { command: `./job-${i}.sh` }), at: i }, { ...result(`f${i}`, 'ok'), at: i });
      }
    }
    const record = recordToolActivity(messages);
    assert.equal(record.errors.length, RECORD_LIMITS.errors);
    const unfixed = record.errors.filter((e) => !e.fixed);
    assert.equal(unfixed.length, RECORD_LIMITS.errors, 'all the room goes to the errors not fixed yet');
    assert.equal(unfixed[unfixed.length - 1].summary.includes(`job ${RECORD_LIMITS.errors * 2 - 1}`), true, 'the newest are kept');
  });

  it('says how an error was fixed after the command that fixed it has left the newest commands', () => {
    const messages: Message[] = [
      { ...call('broken', 'Bash', { command: 'make lint' }), at: 0 },
      { ...result('broken', 'Error: 3 lint problems', true), at: 0 },
      { ...call('fixing', 'Bash', { command: 'make lint 2>&1 | tail -5' }), at: 1 },
      { ...result('fixing', 'fixed 3 problems'), at: 1 },
      ...Array.from({ length: RECORD_LIMITS.commands + 10 }, (_, i) => [
        { ...call(`later${i}`, 'Bash', { command: `./later-${i}.sh` }), at: 2 + i },
        { ...result(`later${i}`, 'done'), at: 2 + i },
      ]).flat(),
    ];
    const record = recordToolActivity(messages);
    assert.equal(
      record.commands.some((c) => c.callId === 'fixing'),
      false,
      'the fixing command is older than the newest commands kept',
    );
    const errors = recordSections(record).sections.find((s) => s.id === 'errors');
    assert.deepEqual(errors?.lines, ['- ✔️ Bash on `make lint`: Error: 3 lint problems; fixed: a later run succeeded']);
  });

  it('builds the record of a range that grows at its end from the record of the shorter range, with the same result', () => {
    const first = commandRun(30);
    const added = commandRun(30, 30);
    const shorter = RangeRecord.start().extended(first);
    const longer = shorter.extended(added);
    assert.equal(longer.length, first.length + added.length);
    assert.deepEqual(longer.record, recordToolActivity([...first, ...added]));
  });

  it('gives a range that grows again and again, and one that branches off a shorter range, the record of its own messages', () => {
    const start = commandRun(10);
    const first = RangeRecord.start().extended(start);
    let grown = first;
    let messages = start;
    for (let step = 1; step <= 3; step++) {
      const added = commandRun(10, step * 10);
      grown = grown.extended(added);
      messages = [...messages, ...added];
      assert.deepEqual(grown.record, recordToolActivity(messages));
    }
    // A branch off the first range, as long as the others: its last result answers a call only they hold.
    const other = [...commandRun(10, 100), { ...result('c15', 'Error: from another branch', true), at: 99 }];
    const branch = first.extended(other);
    assert.deepEqual(branch.record, recordToolActivity([...start, ...other]));
    assert.equal(
      branch.record.commands.some((c) => c.callId === 'c15'),
      false,
    );
  });

  it('finds the call of a result among the messages before the ones added, which it no longer holds', () => {
    const calls = [call('early', 'Bash', { command: 'npm test' })];
    const results = [{ ...result('early', 'Error: 2 tests failed', true), at: 5 }];
    const record = RangeRecord.start().extended(calls).extended(results).record;
    assert.deepEqual(record, recordToolActivity([...calls, ...results]));
    assert.equal(record.commands.length, 1, 'the result is recorded as the command its call ran');
  });
});
