import * as assert from 'node:assert/strict';
import { contextMessage, splitAtHeadings } from '../../../src/engine/checkpoints/contextMessage';
import { messageText } from '../../../src/engine/types';

describe('the context message', () => {
  const text =
    '# Context kept by ctx\nintro\n\n## Session ledger\nnote\n\n### Goals\n- one\n\n' +
    'plain paragraph\n\n```\n\n## not a heading in code? still split\n```\n\n### Files\n- a.ts';

  it('is cut before headings and gives the exact text back when its blocks are joined', () => {
    const pieces = splitAtHeadings(text);
    assert.ok(pieces.length >= 4);
    assert.equal(pieces.join('\n'), text);
    assert.equal(messageText(contextMessage(text) ?? { id: '', role: 'user', blocks: [] }), text);
  });

  it('reuses the block of every section that did not change, so only changed sections are counted again', () => {
    const first = contextMessage(text);
    const second = contextMessage(text.replace('- a.ts', '- a.ts\n- b.ts'), first);
    assert.ok(first && second);
    const reused = second.blocks.filter((b) => first.blocks.includes(b)).length;
    assert.equal(reused, second.blocks.length - 1, 'all but the changed Files section');
  });

  it('is absent for an empty text', () => {
    assert.equal(contextMessage(''), undefined);
  });
});
