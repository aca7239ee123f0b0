import * as assert from 'node:assert/strict';
import { shellWrites } from '../../../src/engine/ledger/shellWrites';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { call, result, user } from '../support/builders';

describe('files a command writes from a here-document', () => {
  it('reads the file and its text in the forms agents write them, past a leading cd, and what follows stays the command', () => {
    const script = ['from loans import grace', '', 'def check_grace(member):', '    return grace.days(member)'].join('\n');
    assert.deepEqual(shellWrites(`cat > /repo/check.py <<'EOF'\n${script}\nEOF\npython /repo/check.py`), [
      { path: '/repo/check.py', content: script, appended: false },
    ]);
    assert.deepEqual(shellWrites('cd /repo && cat <<EOF > "docs/holds.md"\n# Holds\nEOF'), [
      { path: 'docs/holds.md', content: '# Holds', appended: false },
    ]);
    assert.deepEqual(shellWrites("tee -a notes.txt <<'END'\nfines start a day late\nEND"), [
      { path: 'notes.txt', content: 'fines start a day late', appended: true },
    ]);
    assert.deepEqual(shellWrites('cat >> app.log <<EOF\nstarted\nEOF'), [{ path: 'app.log', content: 'started', appended: true }]);
  });

  it('reads no file from a here-document fed to a program, printed, or left open', () => {
    assert.deepEqual(shellWrites("python - <<'PY'\nprint(1)\nPY"), []);
    assert.deepEqual(shellWrites('cat <<EOF\nhello\nEOF'), []);
    assert.deepEqual(shellWrites("cat > a.py <<'EOF'\nx = 1\n"), []);
    assert.deepEqual(shellWrites('echo "a << b" > out.txt'), []);
  });

  it('reads no file named by what the shell expands, a variable or a command substitution, and a quoted name as written', () => {
    assert.deepEqual(shellWrites('notes=$(mktemp).md\ncat > "$notes" <<\'EOF\'\nFines start a day late.\nEOF'), []);
    assert.deepEqual(shellWrites("cat > $OUT_DIR/holds.md <<'EOF'\n# Holds\nEOF"), []);
    assert.deepEqual(shellWrites("cat > `mktemp` <<'EOF'\nx\nEOF"), []);
    assert.deepEqual(shellWrites("cat > '$literal.md' <<'EOF'\nx\nEOF"), [{ path: '$literal.md', content: 'x', appended: false }]);
  });

  it("gives the written file and what it defines as artifacts, while the command's run stays a command", () => {
    const command = "cat > /repo/check.py <<'EOF'\ndef check_grace(member):\n    return 2\nEOF\npython /repo/check.py";
    const facts = extractFacts([user('Check the grace days.'), call('c1', 'bash', { command }), result('c1', '2')]);
    assert.ok(
      facts.some((f) => f.kind === 'artifact' && f.text === '/repo/check.py (created)'),
      facts.map((f) => f.text).join('\n'),
    );
    assert.ok(facts.some((f) => f.kind === 'artifact' && f.text === 'In check.py: def check_grace(member):'));
  });
});
