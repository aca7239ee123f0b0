import * as assert from 'node:assert/strict';
import { UsageError } from '../../../src/cli/cliErrors';
import { parseCommandLine, positiveInteger, type CommandSpec } from '../../../src/cli/commandLine';

const SPECS: CommandSpec[] = [
  { name: 'replay', positionals: ['transcript'], options: ['budget', 'out'], switches: ['json'] },
  { name: 'search', positionals: ['dir', 'query'], lastTakesRest: true, options: ['top'], switches: ['json'] },
];

describe('command line parsing', () => {
  it('reads flags anywhere after the command, as --name value or --name=value', () => {
    const line = parseCommandLine(['replay', '--budget=5000', 'a.jsonl', '--json', '--out', 'dir'], SPECS);
    assert.equal(line.kind, 'command');
    if (line.kind !== 'command') return;
    assert.deepEqual(line.positionals, ['a.jsonl']);
    assert.deepEqual(
      [...line.options],
      [
        ['budget', '5000'],
        ['out', 'dir'],
      ],
    );
    assert.ok(line.switches.has('json'));
  });

  it('joins an unquoted query, and reads words after -- as arguments even when they start with "-"', () => {
    const line = parseCommandLine(['search', 'dir', 'offset', 'error', '--top', '3', '--', '--verbose'], SPECS);
    assert.ok(line.kind === 'command');
    assert.deepEqual(line.positionals, ['dir', 'offset error --verbose']);
  });

  it('treats --help and -h before -- as a request for help', () => {
    assert.equal(parseCommandLine(['search', 'dir', '-h'], SPECS).kind, 'help');
    assert.equal(parseCommandLine(['search', 'dir', '--', '--help'], SPECS).kind, 'command');
  });

  it('throws a UsageError for a switch with a value', () => {
    assert.throws(
      () => parseCommandLine(['replay', 'a', '--json=yes'], SPECS),
      (e: unknown) => e instanceof UsageError && /--json takes no value/.test(e.message),
    );
  });

  it('accepts only positive whole numbers', () => {
    assert.equal(positiveInteger('top', '12'), 12);
    for (const bad of ['0', '-1', '1e3', '0x10', '3.0', 'nine', '99999999999999999999']) {
      assert.throws(() => positiveInteger('top', bad), UsageError);
    }
  });
});
