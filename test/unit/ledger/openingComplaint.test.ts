import * as assert from 'node:assert/strict';
import { commandOutcome } from '../../../src/engine/ledger/commandOutcome';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { toolResultBlock } from '../../../src/engine/types';
import { call, result } from '../support/builders';

const ran = (command: string, content: string) => commandOutcome(toolResultBlock('c', content), [command]).ok;

/** What a command-line parser prints when it refuses its arguments: the complaint, then its usage and options. */
const REFUSED = [
  'deploy target required when not running interactively',
  '',
  'Usage:  ship deploy <target> [flags]',
  '',
  'Flags:',
  '  --strict   Exit with non-zero status if a check failed',
].join('\n');

describe("a run whose output opens with its program's refusal, with no exit status stated", () => {
  it("fails when the program's first line is its error, or a complaint over the usage it prints", () => {
    assert.equal(ran('ship deploy | tee deploy.log', REFUSED), false);
    assert.equal(
      ran('ledgerctl sync 2>&1 | head -5', "error: unexpected argument '--dry' found\n\nUsage: ledgerctl sync [OPTIONS]"),
      false,
    );
    assert.equal(ran('ledgerctl status', 'Error: the ledger daemon is not running'), false);
  });

  it('names the complaint as the error, not an option of the usage that holds an error word', () => {
    const [error] = recordToolActivity([call('c1', 'Bash', { command: 'ship deploy | tee deploy.log' }), result('c1', REFUSED)]).errors;
    assert.equal(error?.summary, 'deploy target required when not running interactively');
  });

  it('does not fail a request for the usage, a usage alone, files printed, or an output that only mentions an error later', () => {
    assert.equal(ran('ship deploy --help', REFUSED), true);
    assert.equal(ran('ship help deploy', REFUSED), true);
    assert.equal(ran('ship', 'Usage:  ship <command> [flags]\n\nCommands:\n  deploy   Deploy a target'), true);
    assert.equal(ran('cat notes/triage.md', 'error: the cache key drops the tenant\nfix: add tenant to the key'), true);
    assert.equal(ran('ledgerctl report', 'Report for March\nerror: none of 12 entries unbalanced\nclosed at 09:12'), true);
  });
});
