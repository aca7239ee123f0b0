import * as assert from 'node:assert/strict';
import { diffChanges } from '../../../src/engine/ledger/diffHunks';

describe("the lines a diff's hunks add and remove", () => {
  it('reads them under a hunk header only, until a line no hunk holds, without the names of the files compared', () => {
    const lines = [
      '- the first change of the notes', // a list item, before any hunk
      'diff --git a/store/ledger.go b/store/ledger.go',
      '--- a/store/ledger.go',
      '+++ b/store/ledger.go',
      '@@ -40,6 +40,7 @@ func Open(path string) (*Ledger, error) {',
      ' \tdb, err := sql.Open("sqlite", path)',
      '-\t\treturn nil, fmt.Errorf("failed to open the ledger: %w", err)',
      '+\t\treturn nil, fmt.Errorf("open ledger %s: %w", path, err)',
      '\\ No newline at end of file',
      '',
      'Found 2 changed files.',
      '- exit code: 1',
    ];
    assert.deepEqual(
      [...diffChanges(lines)],
      [
        [6, 'removed'],
        [7, 'added'],
      ],
    );
    assert.equal(diffChanges(['@@ not a hunk', '-\tfailed to parse']).size, 0);
  });

  it('reads a hunk on past the place a shortened output left lines out', () => {
    const shortened = ['@@ -40,6 +40,9 @@', '-\tif err := open(path); err != nil {', '…', '-\t\treturn fmt.Errorf("open ledger: %w", err)'];
    assert.deepEqual([...diffChanges(shortened).keys()], [1, 3]);
    assert.deepEqual([...diffChanges(['@@ -1 +1 @@', '-a', '[… 12 lines omitted …]', '+b']).keys()], [1, 3]);
  });
});
