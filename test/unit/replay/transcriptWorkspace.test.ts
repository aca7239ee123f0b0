import * as assert from 'node:assert/strict';
import { filesWrittenBy, TranscriptWorkspace } from '../../../src/cli/replay/transcriptWorkspace';
import { message, toolCallBlock, type ToolInput } from '../../../src/engine/types';

const calling = (name: string, input: ToolInput) =>
  message(`a-${name}-${JSON.stringify(input).length}`, 'assistant', [toolCallBlock(`c-${Math.random()}`, name, input)]);

describe('the workspace a replayed transcript leaves', () => {
  it('holds what a whole write put in a file, and the last write wins', async () => {
    const files = filesWrittenBy([
      calling('Write', { file_path: 'a.ts', content: 'one' }),
      calling('Write', { file_path: 'a.ts', content: 'two' }),
    ]);
    assert.equal(await files.readText('a.ts'), 'two');
    assert.equal(await files.readText('b.ts'), undefined);
  });

  it('applies an edit to the text it replaces, and appends an edit whose old text is unknown', async () => {
    const files = new TranscriptWorkspace();
    files.apply(calling('Write', { file_path: 'a.ts', content: 'const a = 1;\nconst b = 2;\n' }));
    files.apply(calling('Edit', { file_path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' }));
    files.apply(calling('Edit', { file_path: 'c.ts', old_string: 'never seen', new_string: 'fragment' }));
    assert.equal(await files.readText('a.ts'), 'const a = 1;\nconst b = 3;\n');
    assert.equal(await files.readText('c.ts'), '\nfragment');
    assert.deepEqual(files.paths, ['a.ts', 'c.ts']);
  });

  it('takes the new text literally, even with replacement patterns in it', async () => {
    const files = filesWrittenBy([
      calling('Write', { path: 'a', content: 'x' }),
      calling('str_replace_editor', { path: 'a', old_str: 'x', new_str: "$& and $'" }),
    ]);
    assert.equal(await files.readText('a'), "$& and $'");
  });

  it('ignores calls that write nothing', async () => {
    const files = filesWrittenBy([calling('Read', { file_path: 'a.ts' }), calling('Bash', { command: 'echo hi > a.ts' })]);
    assert.deepEqual(files.paths, []);
  });
});
