import * as assert from 'node:assert/strict';
import { allowedToolMatcher, chooseTools, MAX_TOOLS_PER_REQUEST } from '../../../src/vscode/toolSelection';

const tool = (name: string) => ({ name, description: `does ${name}` });
const AVAILABLE = ['ctx_recover', 'ctx_checkpoint', 'editor_readFile', 'editor_write', 'shell_run', 'web.fetch'].map(tool);
const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name);

describe('tool selection for @ctx', () => {
  it('offers every available tool when nothing restricts them, ctx’s own first', () => {
    const choice = chooseTools(AVAILABLE, { allowed: [], ownPrefix: 'ctx_', attached: [] });
    assert.deepEqual(names(choice.tools), ['ctx_recover', 'ctx_checkpoint', 'editor_readFile', 'editor_write', 'shell_run', 'web.fetch']);
    assert.deepEqual(choice.attached, []);
    assert.deepEqual(choice.leftOut, []);
  });

  it('treats ["*"] and a list of blank entries as every tool', () => {
    for (const allowed of [['*'], ['editor_*', '*'], ['  ', '']]) {
      assert.equal(
        chooseTools(AVAILABLE, { allowed, ownPrefix: 'ctx_', attached: [] }).tools.length,
        AVAILABLE.length,
        JSON.stringify(allowed),
      );
    }
  });

  it('restricts other tools to the listed names and globs, and always keeps ctx’s own', () => {
    const choice = chooseTools(AVAILABLE, { allowed: ['editor_*', 'shell_run'], ownPrefix: 'ctx_', attached: [] });
    assert.deepEqual(names(choice.tools), ['ctx_recover', 'ctx_checkpoint', 'editor_readFile', 'editor_write', 'shell_run']);
  });

  it('matches a glob against the whole name, with every other character literal', () => {
    const isAllowed = allowedToolMatcher(['web.fetch', 'edit*']);
    assert.equal(isAllowed('web.fetch'), true);
    assert.equal(isAllowed('webXfetch'), false, 'a dot is a dot, not any character');
    assert.equal(isAllowed('editor_write'), true);
    assert.equal(isAllowed('my_editor'), false, 'a glob is anchored at the start');
    assert.equal(allowedToolMatcher(['read(file)'])('read(file)'), true);
  });

  it('offers tools the user attached even when the setting leaves them out, and lists them for the first round', () => {
    const choice = chooseTools(AVAILABLE, { allowed: ['editor_readFile'], ownPrefix: 'ctx_', attached: ['shell_run', 'not_a_tool'] });
    assert.deepEqual(names(choice.tools), ['ctx_recover', 'ctx_checkpoint', 'shell_run', 'editor_readFile']);
    assert.deepEqual(names(choice.attached), ['shell_run'], 'names VS Code does not know are ignored');
  });

  it(`offers at most ${MAX_TOOLS_PER_REQUEST} tools, keeping ctx’s own and the attached ones, and says which were left out`, () => {
    const many = [...Array.from({ length: MAX_TOOLS_PER_REQUEST + 5 }, (_, i) => tool(`ext_tool${i}`)), tool('ctx_recover')];
    const choice = chooseTools(many, { allowed: [], ownPrefix: 'ctx_', attached: [`ext_tool${MAX_TOOLS_PER_REQUEST + 4}`] });
    assert.equal(choice.tools.length, MAX_TOOLS_PER_REQUEST);
    assert.deepEqual(names(choice.tools).slice(0, 2), ['ctx_recover', `ext_tool${MAX_TOOLS_PER_REQUEST + 4}`]);
    assert.equal(choice.leftOut.length, many.length - MAX_TOOLS_PER_REQUEST);
    assert.ok(!choice.leftOut.includes('ctx_recover'));
    assert.deepEqual(new Set([...names(choice.tools), ...choice.leftOut]).size, many.length, 'every tool is either offered or named');
  });

  it('in Restricted Mode offers only ctx’s own tools and the attached ones, whatever the setting allows', () => {
    for (const allowed of [[], ['*'], ['shell_*']]) {
      const choice = chooseTools(AVAILABLE, { allowed, ownPrefix: 'ctx_', attached: ['editor_readFile'], restricted: true });
      assert.deepEqual(names(choice.tools), ['ctx_recover', 'ctx_checkpoint', 'editor_readFile']);
    }
    assert.deepEqual(names(chooseTools(AVAILABLE, { allowed: [], ownPrefix: 'ctx_', attached: [], restricted: true }).tools), [
      'ctx_recover',
      'ctx_checkpoint',
    ]);
  });
});
