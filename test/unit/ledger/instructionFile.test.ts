import * as assert from 'node:assert/strict';
import { parseInstructionFile } from '../../../src/engine/ledger/instructionFile';

const SCOPED = '.github/instructions/style.instructions.md';

describe('instruction file front matter', () => {
  it('keeps a file without front matter whole, applying everywhere', () => {
    const text = '# Rules\n\nAlways answer in metric units.\n';
    assert.deepEqual(parseInstructionFile('AGENTS.md', text), { body: '# Rules\n\nAlways answer in metric units.' });
  });

  it('reads applyTo globs, quoted or not, and keeps the body after the front matter verbatim', () => {
    const text = '---\ndescription: "Style"\napplyTo: "**/*.ts, src/**/*.tsx"\n---\n\nUse `const` for bindings.\n  Indented line stays.\n';
    assert.deepEqual(parseInstructionFile(SCOPED, text), {
      body: 'Use `const` for bindings.\n  Indented line stays.',
      applyTo: ['**/*.ts', 'src/**/*.tsx'],
    });
    assert.deepEqual(parseInstructionFile(SCOPED, '---\napplyTo: docs/*.md # the docs\n---\nx').applyTo, ['docs/*.md']);
    assert.deepEqual(parseInstructionFile(SCOPED, '---\napplyTo: [\'*.py\', "lib/**"]\n---\nx').applyTo, ['*.py', 'lib/**']);
  });

  it('applies everywhere when applyTo is missing or names every file', () => {
    for (const front of ['description: no scope', 'applyTo: "**"', "applyTo: '**/*'", 'applyTo: *', 'applyTo: ""']) {
      const parsed = parseInstructionFile(SCOPED, `---\n${front}\n---\nBody`);
      assert.deepEqual(parsed, { body: 'Body' }, front);
    }
  });

  it('reads Windows line endings and a byte-order mark', () => {
    const parsed = parseInstructionFile(SCOPED, '\uFEFF---\r\napplyTo: "**/*.cs"\r\n---\r\nLine one\r\nLine two\r\n');
    assert.deepEqual(parsed, { body: 'Line one\nLine two', applyTo: ['**/*.cs'] });
  });

  it('keeps the whole text when the front matter is never closed, so nothing is lost', () => {
    const text = '---\napplyTo: "**/*.ts"\nUse tabs.';
    assert.deepEqual(parseInstructionFile(SCOPED, text), { body: text });
  });

  it('scopes only *.instructions.md files: AGENTS.md and copilot-instructions.md always apply', () => {
    const text = '---\napplyTo: "**/*.go"\n---\nRun gofmt.';
    assert.deepEqual(parseInstructionFile('AGENTS.md', text), { body: 'Run gofmt.' });
    assert.deepEqual(parseInstructionFile('.github/copilot-instructions.md', text), { body: 'Run gofmt.' });
    assert.deepEqual(parseInstructionFile('.github/instructions/Go.Instructions.MD', text).applyTo, ['**/*.go']);
  });
});
