import * as assert from 'node:assert/strict';
import { meaningfulLines } from '../../../src/engine/ledger/resultLines';
import { outputGist } from '../../../src/engine/ledger/commandOutput';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { outputLineFacts } from '../../../src/engine/recall/outputLines';
import { call, result } from '../support/builders';

describe("a host's note in place of an output", () => {
  const quiet = [
    call('a1', 'bash', { command: 'git add . && git commit -qm "Bump to 0.8.0"' }),
    result('a1', '(no output)'),
    call('a2', 'powershell', { command: 'Copy-Item dist\\app.exe C:\\tools\\' }),
    result('a2', '(PowerShell completed with no output)'),
  ];

  it('is not a line the program printed: no gist, no outcome, no line for the earlier lines', () => {
    assert.deepEqual(meaningfulLines('(no output)'), []);
    assert.equal(outputGist('(PowerShell completed with no output)'), undefined);
    assert.deepEqual(
      extractFacts(quiet).filter((f) => /no output/.test(f.text)),
      [],
    );
    assert.deepEqual(outputLineFacts(quiet), []);
  });

  it('keeps a line in brackets that the program printed: with a figure, or among other lines', () => {
    assert.deepEqual(meaningfulLines('(3 files changed)'), ['(3 files changed)']);
    assert.deepEqual(meaningfulLines('Compiled app in 2.1s\n(cached)'), ['Compiled app in 2.1s', '(cached)']);
  });
});
