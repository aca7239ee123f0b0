import * as assert from 'node:assert/strict';
import { hasSourcePlace, isLocatedMessage } from '../../../src/engine/ledger/sourcePlace';

describe('a place in a source file', () => {
  it('is a file name with its extension, a line and maybe a column, wherever it stands in the line', () => {
    for (const line of ['docs/a.md:12', 'see src/a.ts:4:15 for the call', '    at f (/srv/app/lib/x.js:40:7)', '@scope/pkg.mjs:3']) {
      assert.ok(hasSourcePlace(line), line);
    }
  });

  it('is not a time of day, a ratio, a port or a number glued to a word', () => {
    for (const line of ['started at 12:04:55', 'ratio 3:2', 'listening on localhost:8080', 'v1.2.3', 'a.ts:12x of them']) {
      assert.ok(!hasSourcePlace(line), line);
    }
  });

  it('says something when the place opens the line and words follow it, not when a frame only mentions it', () => {
    assert.ok(isLocatedMessage('parser_test.go:22: got 6 windows, want 7'));
    assert.ok(isLocatedMessage('./main.go:3:2: undefined: foo'));
    assert.ok(isLocatedMessage(String.raw`src\lib\a.ts:9:1: missing semicolon`), 'a Windows path');
    assert.ok(!isLocatedMessage('    at f (src/a.js:4:15)'));
    assert.ok(!isLocatedMessage('src/a.ts:12:'), 'a place with nothing said after it');
    assert.ok(!isLocatedMessage('src/a.ts:12: 404'), 'figures alone say nothing');
  });
});
