import * as assert from 'node:assert/strict';
import { errorSummary } from '../../../src/engine/ledger/errorSummary';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { outputLineFacts } from '../../../src/engine/recall/outputLines';
import { withoutTerminalCodes } from '../../../src/engine/text/terminalCodes';
import { assistant, call, result, user } from '../support/builders';

const ESC = '\u001b';

describe('terminal codes in what a program printed', () => {
  it('are taken out of colour, cursor and title sequences, and leave text without them as it is', () => {
    assert.equal(withoutTerminalCodes(`${ESC}[1m${ESC}[46m RUN ${ESC}[49m${ESC}[22m ${ESC}[36mv4.0.18${ESC}[39m`), ' RUN  v4.0.18');
    assert.equal(withoutTerminalCodes(`${ESC}]0;build: ok\u0007done${ESC}[2K${ESC}[1G`), 'done');
    const plain = 'Tests: 12 passed, 12 total';
    assert.equal(withoutTerminalCodes(plain), plain);
  });

  it('never reach a fact, an error or the summary of an error', () => {
    const verdict = `${ESC}[32m✓${ESC}[39m 48 checks passed in ${ESC}[1m3.2s${ESC}[22m`;
    const refusal = `${ESC}[31;21m[!] key file pub2.pem could not be parsed${ESC}[0m`;
    const messages = [
      user('Check the signing keys and run the checks.'),
      call('k1', 'shell', { command: 'keytool verify pub2.pem' }),
      result('k1', refusal, true),
      assistant('The second key file is damaged; I will regenerate it.'),
      call('k2', 'shell', { command: 'npm run checks' }),
      result('k2', ['> checks', verdict].join('\n')),
      assistant('All checks pass with the new key.'),
    ];
    const facts = extractFacts(messages);
    assert.ok(facts.some((f) => f.kind === 'error' && f.text === '[!] key file pub2.pem could not be parsed'));
    const printed = outputLineFacts(messages);
    assert.ok(printed.some((f) => f.text === '✓ 48 checks passed in 3.2s'));
    assert.ok(![...facts, ...printed].some((f) => f.text.includes(ESC)), facts.map((f) => f.text).join('\n'));
    assert.equal(errorSummary(refusal), '[!] key file pub2.pem could not be parsed');
  });

  it('are taken out when their escape is written in caret notation, as a CI log or `cat -v` prints it', () => {
    const failed = 'deploy\tRun packager\t^[[1;91m  ⨯^[[0m ^[[1mpackaging failed after 4s^[[0m  ^[[1;91merror^[[0m=disk quota exceeded';
    assert.equal(withoutTerminalCodes(failed), 'deploy\tRun packager\t  ⨯ packaging failed after 4s  error=disk quota exceeded');
    const messages = [
      user('Why did the packaging job fail?'),
      call('g1', 'shell', { command: 'ci-logs show 4411 --failed' }),
      result('g1', ['deploy\tRun packager\t^[[1;94m  •^[[0m ^[[1mstarting packager^[[0m', failed, 'exit status 1'].join('\n')),
      assistant('The runner is out of disk quota; I will clear its cache.'),
    ];
    const lines = [...extractFacts(messages), ...outputLineFacts(messages)].map((f) => f.text);
    assert.ok(
      lines.some((l) => l.includes('packaging failed after 4s')),
      lines.join('\n'),
    );
    assert.ok(!lines.some((l) => l.includes('^[[')), lines.join('\n'));
  });
});
