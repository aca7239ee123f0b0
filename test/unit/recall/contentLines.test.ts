import * as assert from 'node:assert/strict';
import { MAX_CONTENT_CHARS, spanContentFacts } from '../../../src/engine/recall/contentLines';
import { readToolSteps } from '../../../src/engine/recall/toolSteps';
import { assistant, call, result } from '../support/builders';

const numbered = (name: string, lines: number) => Array.from({ length: lines }, (_, i) => `${name} line ${i} holds value_${i}`).join('\n');
const WORDS = ['cache', 'parser', 'queue', 'ledger', 'token', 'router', 'schema', 'worker', 'bucket', 'stream', 'socket'];
/** Lines an output prints that differ in several words: what it says, not a run of items. */
const said = (lines: number) =>
  Array.from({ length: lines }, (_, i) => {
    const block = Math.floor(i / 11);
    return `the ${WORDS[i % 11]} sent ${WORDS[block % 11]} to the ${WORDS[(i + block) % 11]} at step ${i}`;
  });

describe('the content of what a summarized span read, printed and was given', () => {
  it('takes the latest read of each file, a long output under its command, and a call input of several lines under its path', () => {
    const facts = spanContentFacts(
      readToolSteps([
        call('r1', 'read_file', { path: 'src/old.ts' }),
        result('r1', 'stale copy of the parser module\nsecond stale line of the parser'),
        call('r2', 'read_file', { path: 'src/old.ts' }),
        result('r2', 'fresh copy of the parser module\nsecond fresh line of the parser'),
        call('c1', 'bash', { command: 'make test' }),
        result('c1', said(80).join('\n')),
        call('c2', 'bash', { command: 'git status' }),
        result('c2', 'On branch main\nnothing to commit'),
        call('w1', 'write_file', { path: 'notes/plan.md', content: '# Plan\nfirst write the parser tests\nthen move the cache' }),
        result('w1', 'Wrote notes/plan.md'),
        assistant('Done.'),
      ]),
    );
    const of = (from: string) => facts.filter((f) => f.from === from).flatMap((f) => f.text.split('\n'));
    assert.deepEqual(of('src/old.ts'), ['fresh copy of the parser module', 'second fresh line of the parser'], 'the latest read only');
    assert.ok(facts.filter((f) => f.from === 'src/old.ts').every((f) => f.fromKind === 'read'));
    assert.equal(of('make test').length, 80, 'every line of a long output, its middle too');
    assert.deepEqual(of('git status'), [], 'a short output is all in its output lines already');
    assert.deepEqual(of('notes/plan.md'), ['# Plan', 'first write the parser tests', 'then move the cache']);
    assert.ok(facts.filter((f) => f.from === 'notes/plan.md').every((f) => f.fromKind === 'written'));
    assert.ok(
      facts.every((f) => f.printed === true && f.score < 0.1),
      'only ever free room, below every printed line',
    );
  });

  it('takes the new text of an edit, never the longer text it replaced', () => {
    const removed =
      'function total(items) {\n  let sum = 0;\n  for (const item of items) {\n    sum += item.price * (item.quantity ?? 1);\n  }\n  return sum;\n}';
    const added = 'const total = (items) =>\n  items.reduce((sum, item) => sum + item.price, 0);\n// one pass, no loop variable';
    assert.ok(removed.length > added.length, 'the replaced text is the longer one');
    const facts = spanContentFacts(
      readToolSteps([
        call('e1', 'Edit', { file_path: 'src/cart.js', old_string: removed, new_string: added }),
        result('e1', 'The file src/cart.js has been updated.'),
      ]),
    );
    assert.deepEqual(
      facts.map((f) => f.text),
      ['const total = (items) =>\n  items.reduce((sum, item) => sum + item.price, 0);\n// one pass, no loop variable'],
      'as written, indentation and all: a top-level line after an indented one closes its range',
    );
    assert.ok(facts.every((f) => f.from === 'src/cart.js' && f.fromKind === 'written'));
  });

  it('shows nothing of a failed read, and every call input of a tool called twice', () => {
    const facts = spanContentFacts(
      readToolSteps([
        call('r1', 'read_file', { path: 'src/missing.ts' }),
        result('r1', 'ENOENT: no such file or directory, open src/missing.ts\nat readFile', true),
        call('p1', 'run_python', { code: 'import pandas as pd\nframe = pd.read_csv("a.csv")\nprint(frame.shape)' }),
        result('p1', '(10, 3)'),
        call('p2', 'run_python', { code: 'import numpy as np\nvalues = np.arange(12)\nprint(values.sum())' }),
        result('p2', '66'),
      ]),
    );
    assert.ok(!facts.some((f) => f.from === 'src/missing.ts'), 'its error lines are facts already');
    const inputs = facts.filter((f) => f.fromKind === 'input').flatMap((f) => f.text.split('\n'));
    assert.ok(inputs.includes('frame = pd.read_csv("a.csv")') && inputs.includes('values = np.arange(12)'), inputs.join('\n'));
  });

  it('cuts a file into its top-level ranges, each whole with its closing lines, so what is quoted is code', () => {
    const file = [
      '     1→defmodule Registry do',
      '     2→  def start(id) do',
      '     3→    {:ok, id}',
      '     4→  end',
      '     5→end',
      '     6→',
      '     7→defmodule Registry.Sup do',
      '     8→  use Supervisor',
      '     9→end',
      '    10→# a comment at the top',
      '    11→const rows = [',
      '    12→  { id: 1 },',
      '    13→];',
    ].join('\n');
    const facts = spanContentFacts(readToolSteps([call('r1', 'Read', { file_path: 'lib/registry.ex' }), result('r1', file)]));
    assert.deepEqual(
      facts.map((f) => f.text.split('\n').map((l) => l.slice(l.indexOf('→') + 1))),
      [
        ['defmodule Registry do', '  def start(id) do', '    {:ok, id}', '  end', 'end'],
        ['defmodule Registry.Sup do', '  use Supervisor', 'end'],
        ['# a comment at the top'],
        ['const rows = [', '  { id: 1 },', '];'],
      ],
    );
    assert.equal(new Set(facts.map((f) => f.key)).size, facts.length, 'each range its own key');
  });

  it("leaves the harness's fields and a build's item-by-item runs out of what an output is quoted with", () => {
    const names = ['postgrex', 'ecto_sql', 'crux', 'finch', 'igniter', 'spark', 'reactor'];
    const deps = names.flatMap((dep, i) => [`==> ${dep}`, `Compiling ${10 + i} files (.ex)`, `Generated ${dep} app`]);
    const output = ['<retrieval_status>success</retrieval_status>', '<output>', ...deps, ...said(40), '</output>'];
    const facts = spanContentFacts(readToolSteps([call('t1', 'TaskOutput', { task_id: 'b7b' }), result('t1', output.join('\n'))]));
    const quoted = facts.flatMap((f) => f.text.split('\n'));
    assert.ok(quoted.length > 0 && !quoted.some((l) => /==>|Generated|retrieval_status/.test(l)), quoted.join('\n'));
    assert.equal(quoted.filter((l) => l.startsWith('Compiling')).length, 1, 'a line printed again but for its numbers, once');
  });

  it('takes at most its share of characters in all, the latest content first', () => {
    const messages = Array.from({ length: 12 }, (_, i) => [
      call(`r${i}`, 'read_file', { path: `src/module${i}.ts` }),
      result(`r${i}`, numbered(`module${i}`, 400)),
    ]).flat();
    const facts = spanContentFacts(readToolSteps(messages));
    const chars = facts.reduce((sum, f) => sum + f.text.length, 0);
    assert.ok(chars <= MAX_CONTENT_CHARS + 100, `${chars} characters`);
    assert.equal(facts[0].from, 'src/module11.ts', 'the latest read first');
    assert.ok(!facts.some((f) => f.from === 'src/module0.ts'), 'the oldest left out');
  });
});
