import * as assert from 'node:assert/strict';
import { inPlaceEdits } from '../../../src/engine/ledger/inPlaceEdits';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { call, result } from '../support/builders';

describe('files a command edits in place', () => {
  it("reads the files of `sed -i` in the forms agents write it, after its script and options, in a command's chain", () => {
    assert.deepEqual(inPlaceEdits("sed -i 's/GRACE = 0/GRACE = 2/' src/due.py"), ['src/due.py']);
    assert.deepEqual(inPlaceEdits("cd /repo && sed -i.bak -e 's/a/b/' -e 's/c/d/' a.py b.py && python -m pytest"), ['a.py', 'b.py']);
    assert.deepEqual(inPlaceEdits(`sed -Ei 's/x;y/z/' "loan notes.md"; cat loan-notes.md`), ['loan notes.md']);
    assert.deepEqual(inPlaceEdits("sed --in-place=.orig '42s/.*/    return None/' lib/holds.py"), ['lib/holds.py']);
    // macOS sed: the empty backup suffix is a word of its own, before the script.
    assert.deepEqual(inPlaceEdits("sed -i '' '/undefined,$/d' test/markdown.test.ts"), ['test/markdown.test.ts']);
    assert.deepEqual(inPlaceEdits('sed -i "" -e \'s/a/b/\' a.py'), ['a.py']);
  });

  it('reads a sed that starts a line of a script of several lines, where a line break ends a command', () => {
    assert.deepEqual(inPlaceEdits("cd /repo\nsed -i 's/GRACE = 0/GRACE = 2/' src/due.py\npython -m pytest"), ['src/due.py']);
  });

  it('reads none from a sed that only prints, nor from the word sed elsewhere', () => {
    assert.deepEqual(inPlaceEdits("sed -n '10,20p' a.py"), []);
    assert.deepEqual(inPlaceEdits('grep sed notes.txt'), []);
    assert.deepEqual(inPlaceEdits('echo sed -i a b'), []);
    assert.deepEqual(inPlaceEdits("cat a.py | sed 's/a/b/' > b.py"), []);
    assert.deepEqual(inPlaceEdits('for f in src/*.py; do sed -i "s/GRACE = 0/GRACE = 2/" "$f"; done'), [], 'a file named by a variable');
    assert.deepEqual(inPlaceEdits("sed -i 's/a/b/' due.py $EXTRA"), ['due.py']);
  });

  it('lists the file in the ledger as edited, and the command stays a command', () => {
    const record = recordToolActivity([
      call('c1', 'bash', { command: "nl -ba src/due.py | sed -n '1,40p'" }),
      result('c1', '     1\tGRACE = 0'),
      call('c2', 'bash', { command: "sed -i 's/GRACE = 0/GRACE = 2/' src/due.py && python -m pytest -q" }),
      result('c2', '3 passed in 0.02s'),
    ]);
    assert.deepEqual(
      record.files.map((f) => [f.path, f.actions]),
      [['src/due.py', ['edited']]],
    );
    assert.equal(record.commands.length, 2);
  });
});
