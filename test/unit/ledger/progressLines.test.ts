import * as assert from 'node:assert/strict';
import { isProgressLine } from '../../../src/engine/ledger/resultLines';
import { outputLineFacts } from '../../../src/engine/recall/outputLines';
import { call, result } from '../support/builders';

describe('a line that reports progress', () => {
  it('is what a tool was doing, not what came of it', () => {
    assert.equal(isProgressLine('Compiling 3 files (.ex)...'), true);
    assert.equal(isProgressLine('Waiting for the debugger to disconnect...'), true);
    assert.equal(isProgressLine('Running tests. Please wait...'), true, 'both sentences say what it is doing');
  });

  it('states a result first when a sentence before the ellipsis says what was found or done', () => {
    assert.equal(isProgressLine('Matched! Rewriting...'), false);
    assert.equal(isProgressLine('Done. Uploading 3 artifacts…'), false);
    const facts = outputLineFacts([
      call('s1', 'bash', { command: 'python3 patch_card.py src/Card.tsx' }),
      result('s1', 'Reading src/Card.tsx\nMatched! Rewriting...\nWrote 2 changes'),
    ]);
    assert.ok(
      facts.some((f) => f.text === 'Matched! Rewriting...'),
      facts.map((f) => f.text).join('\n'),
    );
  });
});
