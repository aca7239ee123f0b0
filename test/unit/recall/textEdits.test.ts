import * as assert from 'node:assert/strict';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { textEdits } from '../../../src/engine/recall/textEdits';
import { assistant, user } from '../support/builders';

const block = (before: string, after: string) => ['<<<<<<< SEARCH', before, '=======', after, '>>>>>>> REPLACE'].join('\n');

describe('edits an agent writes in its own text', () => {
  it('reads a SEARCH/REPLACE block with its file named above the fence or inside it', () => {
    const text = [
      'The fine starts a day late. Here is the fix:',
      '',
      'src/fines/overdue.py',
      '```python',
      block('    days = (today - due).days - 1', '    days = (today - due).days'),
      '```',
      '',
      '```python',
      'src/fines/rates.py',
      block('RATE = 10', 'RATE_CENTS_PER_DAY = 25'),
      '```',
    ].join('\n');
    assert.deepEqual(textEdits(text), [
      { path: 'src/fines/overdue.py', before: '    days = (today - due).days - 1', after: '    days = (today - due).days' },
      { path: 'src/fines/rates.py', before: 'RATE = 10', after: 'RATE_CENTS_PER_DAY = 25' },
    ]);
  });

  it('reads none from a block that names no file, or that never ends', () => {
    assert.deepEqual(textEdits(['Like this:', '```', block('a = 1', 'a = 2'), '```'].join('\n')), []);
    assert.deepEqual(textEdits(['src/a.py', '```', '<<<<<<< SEARCH', 'a = 1', '======='].join('\n')), []);
    assert.deepEqual(textEdits('No edits here, only a SEARCH for the cause.'), []);
  });

  it('gives what such an edit put in as an outcome and its file as an edited artifact, as for an edit tool', () => {
    const text = ['src/fines/overdue.py', '```python', block('RATE = 10', '# per day, in cents\nRATE_CENTS_PER_DAY = 25'), '```'].join(
      '\n',
    );
    const facts = extractFacts([user('Fines are wrong.'), assistant(text), user('Thanks.')]);
    assert.ok(
      facts.some((f) => f.kind === 'outcome' && f.text === 'Now in overdue.py: RATE_CENTS_PER_DAY = 25'),
      facts.map((f) => f.text).join('\n'),
    );
    assert.ok(facts.some((f) => f.kind === 'artifact' && f.text === 'src/fines/overdue.py (edited)'));
  });
});
