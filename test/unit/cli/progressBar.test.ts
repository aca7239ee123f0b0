import * as assert from 'node:assert/strict';
import { PROGRESS_DELAY_MS, PROGRESS_INTERVAL_MS, ProgressBar } from '../../../src/cli/progressBar';
import type { Terminal } from '../../../src/cli/terminal';

function recordingTerminal(columns = 80): Terminal & { written: string[] } {
  const written: string[] = [];
  return { written, out: () => undefined, err: (text) => void written.push(text), errIsTTY: true, errColumns: columns };
}

describe('the progress bar', () => {
  it('stays silent for a short replay', () => {
    let now = 0;
    const terminal = recordingTerminal();
    const bar = new ProgressBar(terminal, 'Replaying', () => now);
    now = PROGRESS_DELAY_MS - 1;
    bar.update(10, 10, '');
    bar.finish();
    assert.deepEqual(terminal.written, []);
  });

  it('redraws in place a few times a second, always shows the end, and clears its line', () => {
    let now = 0;
    const terminal = recordingTerminal();
    const bar = new ProgressBar(terminal, 'Replaying', () => now);
    now = PROGRESS_DELAY_MS;
    bar.update(1, 4, '1,000 tokens, GREEN');
    now += PROGRESS_INTERVAL_MS / 2;
    bar.update(2, 4, 'skipped: too soon');
    bar.update(4, 4, 'done');
    bar.finish();
    assert.equal(terminal.written.length, 3);
    assert.equal(terminal.written[0], `\rReplaying [${'#'.repeat(8)}${'-'.repeat(22)}] 1/4 1,000 tokens, GREEN\x1b[K`);
    assert.match(terminal.written[1], /\] 4\/4 done/);
    assert.equal(terminal.written[2], '\r\x1b[K');
  });

  it('fits the terminal width', () => {
    let now = PROGRESS_DELAY_MS;
    const terminal = recordingTerminal(30);
    new ProgressBar(terminal, 'Replaying', () => (now += 1000)).update(1, 2, 'a long note that does not fit');
    assert.equal(terminal.written[0], `\r${`Replaying [${'#'.repeat(15)}${'-'.repeat(15)}`.slice(0, 29)}\x1b[K`);
  });
});
