import * as assert from 'node:assert/strict';
import { factLine } from '../../../src/engine/facts/factLines';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { MAX_RAISED_PER_RESULT, raisedMessageCandidates } from '../../../src/engine/recall/raisedMessages';
import { readToolSteps } from '../../../src/engine/recall/toolSteps';
import { assistant, call, result, user } from '../support/builders';

const stepsOf = (name: string, input: Record<string, unknown>, content: string) =>
  readToolSteps([call('c1', name, input), result('c1', content, false, name)]);

describe('error messages raised in the code the agent read', () => {
  it('reads the message a diff puts in as raised, and none that it takes out', () => {
    const diff = [
      'diff --git a/store/ledger.go b/store/ledger.go',
      '@@ -40,6 +40,7 @@ func Open(path string) (*Ledger, error) {',
      '-\t\treturn nil, fmt.Errorf("failed to open the ledger store: %w", err)',
      '+\t\treturn nil, fmt.Errorf("open ledger store %s: %w", path, err)',
    ].join('\n');
    const [step] = stepsOf('bash', { command: 'git diff main -- store' }, diff);
    assert.deepEqual(
      raisedMessageCandidates(step).map((f) => f.key),
      ['open ledger store %s: %w'],
    );
  });

  it('keys each on the message the code raises, in any language, with the code line and the file it was read from', () => {
    const cases: Array<[string, string]> = [
      ['   88→\t\treturn fmt.Errorf("could not open the ledger store: %w", err)', 'could not open the ledger store: %w'],
      ['        raise KeyError(f"unknown tariff zone {zone!r} in the table")', 'unknown tariff zone {zone!r} in the table'],
      ["  throw new RangeError('the window must hold at least one row');", 'the window must hold at least one row'],
      ['12:    log.warning("falling back to the cached tariff table")', 'falling back to the cached tariff table'],
      ['    panic!("shard map is missing its root entry")', 'shard map is missing its root entry'],
    ];
    for (const [line, message] of cases) {
      const [step] = stepsOf('Read', { file_path: 'src/billing/zones.x' }, `first line\n${line}\nlast line\n`);
      const [fact] = raisedMessageCandidates(step);
      assert.ok(fact, `a message in: ${line}`);
      assert.equal(fact.key, message);
      assert.equal(fact.kind, 'error');
      assert.ok(fact.text.includes(message) && !fact.text.startsWith('88→') && !fact.text.startsWith('12:'), fact.text);
      assert.equal(fact.subject, 'src/billing/zones.x');
    }
  });

  it('reads a message written on the line after the call it is raised with', () => {
    const code = ['if zone not in table:', '    raise LookupError(', '        "no tariff zone named like the meter\'s region "', '    )'];
    const [step] = stepsOf('bash', { command: "sed -n '40,44p' billing/zones.py" }, code.join('\n'));
    const [fact] = raisedMessageCandidates(step);
    assert.equal(fact?.key, "no tariff zone named like the meter's region");
  });

  it('takes no name, format or single word as a message, nothing from code that raises nothing, and a few per result', () => {
    const none = [
      'raise ValueError(msg)',
      'throw new Error("E_TIMEOUT")',
      'logger.error("%s: %s", name, err)',
      'const label = "a plain sentence that nothing raises here";',
    ];
    for (const line of none) assert.deepEqual(raisedMessageCandidates(stepsOf('Read', { file_path: 'a.py' }, line)[0]), [], line);
    const many = Array.from({ length: 6 }, (_, i) => `    raise ValueError("the ${i}th guard of the parser failed")`).join('\n');
    const found = raisedMessageCandidates(stepsOf('Read', { file_path: 'parser.py' }, many)[0]);
    assert.equal(found.length, MAX_RAISED_PER_RESULT);
    assert.equal(found[0].key, 'the 0th guard of the parser failed', 'the first ones, in the order of the code');
  });

  it('reads a line of prose that quotes a raise in inline code as prose, and a throw with a template literal as code', () => {
    const notes = [
      '## Changes',
      '- `src/cache/store.py`: kept the original `ImportError` in `_LOAD_ERROR`, replaced `return None` with `raise RuntimeError(...) from _LOAD_ERROR`.',
    ].join('\n');
    assert.deepEqual(raisedMessageCandidates(stepsOf('Read', { file_path: 'docs/CHANGES.md' }, notes)[0]), []);
    const [fact] = raisedMessageCandidates(
      stepsOf('Read', { file_path: 'src/cache.ts' }, 'throw new Error(`cache entry ${key} expired before it was read`);')[0],
    );
    assert.equal(fact?.key, 'cache entry ${key} expired before it was read');
  });

  it("reaches a span's facts, as an error no later call is said to resolve", () => {
    const facts = extractFacts(
      [
        user('Why does the import of meter readings stop at the first bad row?'),
        call('r1', 'Read', { file_path: 'importer/rows.py' }, 'I will read the reader.'),
        result(
          'r1',
          'def read(row):\n    if not row.meter:\n        raise ValueError("meter id missing in the imported row")\n',
          false,
          'Read',
        ),
        assistant('The reader raises on the first row without a meter id, and the loop does not catch it.'),
      ],
      { maxFacts: 60 },
    );
    const raised = facts.find((f) => f.key === 'meter id missing in the imported row');
    assert.ok(raised, facts.map((f) => `${f.kind}: ${f.key}`).join('\n'));
    assert.equal(raised.kind, 'error');
    assert.equal(raised.resolution, undefined);
    assert.match(factLine(raised), /^Raised in code: raise ValueError\("meter id missing/);
    assert.doesNotMatch(factLine(raised), /^Error:/, 'a line of code that raises is not an error that happened');
  });
});
