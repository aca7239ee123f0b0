import * as assert from 'node:assert/strict';
import { applicableInstructions, MAX_INSTRUCTION_CHARS, readInstructions, withInstructions } from '../../../src/engine/ledger/instructions';
import { EMPTY_LEDGER } from '../../../src/engine/model/ledgerTypes';
import type { InstructionFiles } from '../../../src/engine/ports';

const AGENTS = { path: 'AGENTS.md', text: 'Write tests before fixes.' };
const PY = { path: '.github/instructions/py.instructions.md', text: '---\napplyTo: "*.py"\n---\nUse type hints.' };
const DOCS = { path: '.github/instructions/docs.instructions.md', text: '---\napplyTo: "docs/**"\n---\nWrite in plain words.' };

describe('workspace instructions in the ledger', () => {
  it('keeps files that always apply, and scoped ones only once the session touched a matching file', () => {
    assert.deepEqual(applicableInstructions([AGENTS, PY, DOCS], []), [{ path: 'AGENTS.md', text: 'Write tests before fixes.' }]);
    const touched = applicableInstructions([AGENTS, PY, DOCS], ['/home/dev/project/tools/build.py']);
    assert.deepEqual(
      touched.map((e) => [e.path, e.text, e.applyTo]),
      [
        ['AGENTS.md', 'Write tests before fixes.', undefined],
        ['.github/instructions/py.instructions.md', 'Use type hints.', ['*.py']],
      ],
      'a relative glob matches at any depth, as in VS Code',
    );
    assert.equal(applicableInstructions([DOCS], ['/home/dev/project/docs/guide/intro.md']).length, 1);
    assert.equal(applicableInstructions([DOCS], ['/home/dev/project/src/docs.ts']).length, 0);
  });

  it('keeps each path once and leaves out files with nothing to say', () => {
    const entries = applicableInstructions(
      [AGENTS, { path: 'AGENTS.md', text: 'other' }, { path: '.github/copilot-instructions.md', text: '\n  \n' }],
      [],
    );
    assert.deepEqual(entries, [{ path: 'AGENTS.md', text: 'Write tests before fixes.' }]);
  });

  it('cuts a huge file past the limit and says where the rest is', () => {
    const huge = { path: 'AGENTS.md', text: `${'rule. '.repeat(MAX_INSTRUCTION_CHARS / 3)}TAIL` };
    const [entry] = applicableInstructions([huge], []);
    assert.ok(entry.text.startsWith(huge.text.slice(0, MAX_INSTRUCTION_CHARS)), 'the start is verbatim');
    assert.ok(!entry.text.includes('TAIL'));
    assert.match(entry.text, /AGENTS\.md goes on for [\d,]+ more characters; read the file for the rest/);
  });

  it('reads the files through the port', async () => {
    const port: InstructionFiles = { read: async () => [AGENTS, PY] };
    assert.deepEqual(
      (await readInstructions(port, ['a.py'])).map((e) => e.path),
      ['AGENTS.md', PY.path],
    );
  });

  it('changes the ledger only when the instructions changed', () => {
    const entries = applicableInstructions([AGENTS], []);
    assert.equal(withInstructions(EMPTY_LEDGER, []), EMPTY_LEDGER, 'no instructions and none before: the same ledger');
    const withAgents = withInstructions(EMPTY_LEDGER, entries);
    assert.deepEqual(withAgents.instructions, entries);
    assert.equal(withInstructions(withAgents, applicableInstructions([AGENTS], [])), withAgents, 'same content: the same ledger');
    assert.deepEqual(withInstructions(withAgents, []).instructions, [], 'a deleted file leaves the ledger');
  });
});
