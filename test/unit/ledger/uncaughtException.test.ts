import * as assert from 'node:assert/strict';
import { endsInUncaughtException } from '../../../src/engine/ledger/uncaughtException';

const lines = (...l: string[]) => l.join('\n');

describe('an output that ends in an uncaught exception', () => {
  it("is Python's traceback ending in the exception, or a syntax error's report without the traceback header", () => {
    assert.ok(
      endsInUncaughtException(
        lines(
          'loading rates',
          'Traceback (most recent call last):',
          '  File "tools/import_rates.py", line 41, in <module>',
          '    main()',
          "KeyError: 'bps'",
        ),
      ),
    );
    assert.ok(
      endsInUncaughtException(
        lines('  File "app/views.py", line 12', '    def index(request)', '                      ^', "SyntaxError: expected ':'"),
      ),
    );
  });

  it('is a traceback ending in an exception whatever it is named, right after its frames, and not a line printed after them', () => {
    const traceback = [
      'Traceback (most recent call last):',
      '  File "quota/charge.py", line 27, in <module>',
      '    charge(tenant)',
      '  File "quota/rules.py", line 9, in charge',
      '    raise QuotaExhausted(tenant)',
    ];
    assert.ok(endsInUncaughtException(lines(...traceback, 'quota.rules.QuotaExhausted: tenant 7 has no credits left')));
    assert.ok(endsInUncaughtException(lines(...traceback, 'StopRun')), 'a name alone');
    assert.ok(
      !endsInUncaughtException(lines(...traceback, 'quota.rules.QuotaExhausted: tenant 7 has no credits left', 'retrying tenant 8')),
      'a program that went on after printing it',
    );
  });

  it("is the JVM's exception and its frames to the end, a cause and left-out frames included", () => {
    assert.ok(
      endsInUncaughtException(
        lines(
          'Exception in thread "main" java.lang.IllegalStateException: ledger closed',
          '\tat billing.Ledger.post(Ledger.java:88)',
          'Caused by: java.io.IOException: Stream closed',
          '\tat java.base/java.io.BufferedReader.ensureOpen(BufferedReader.java:123)',
          '\t... 3 more',
        ),
      ),
    );
  });

  it("is Node's thrown error and its frames, with the version line Node prints after them", () => {
    assert.ok(
      endsInUncaughtException(
        lines(
          'node:internal/fs/utils:351',
          "Error: EACCES: permission denied, open '/etc/hosts'",
          '    at Object.openSync (node:fs:596:3)',
          '    at writeHosts (/work/scripts/write-hosts.js:9:6)',
          '',
          'Node.js v20.11.1',
        ),
      ),
    );
  });

  it('is not a stack quoted in the middle of an output that goes on, nor an error line without its frames', () => {
    assert.ok(
      !endsInUncaughtException(
        lines('Error: boom', '    at run (/work/a.test.js:3:9)', 'Tests: 1 failed, 12 passed', 'Ran all test suites.'),
      ),
    );
    assert.ok(!endsInUncaughtException(lines('checking config', 'Error: no config file found, using defaults')));
    assert.ok(!endsInUncaughtException(lines('printing the last error seen:', 'ValueError: bad rate')), 'no location: a printed message');
    assert.ok(!endsInUncaughtException(''));
  });
});
