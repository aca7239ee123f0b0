import * as assert from 'node:assert/strict';
import { contextMessage } from '../../../src/engine/checkpoints/contextMessage';
import type { ContextSection } from '../../../src/engine/model/contextSection';
import { messageText } from '../../../src/engine/types';

const section = (part: ContextSection['part'], text: string): ContextSection => ({ part, text });
const sections: readonly ContextSection[] = [
  section('contextHeading', '# Context kept by ctx\n\nintro'),
  section('ledgerHeading', '## Session ledger\nnote'),
  section('goals', '### Goals\n- one'),
  section('toolRecord', 'plain paragraph\n\n```\n\n## not a heading in code\n```'),
  section('toolRecord', '### Files\n- a.ts'),
  section('checkpoint', '## Checkpoint 1 · recent · m1–m9\n\n### Intent\nship it\n\n### Files\n- b.ts'),
];
/** What the model is meant to read: the sections joined by blank lines. */
const joined = (list: readonly ContextSection[]) => list.map((s) => s.text).join('\n\n');

describe('the context message', () => {
  it('has one block a section, and its blocks joined by line breaks are the sections joined by blank lines', () => {
    const built = contextMessage(sections);
    assert.ok(built);
    assert.equal(built.message.blocks.length, sections.length);
    assert.equal(messageText(built.message), joined(sections));
  });

  it('reuses the block of every section that did not change, so only changed sections are counted again', () => {
    const first = contextMessage(sections);
    const changed = sections.map((s) => (s.text.startsWith('### Files') ? section(s.part, `${s.text}\n- c.ts`) : s));
    const second = contextMessage(changed, first);
    assert.ok(first && second);
    const reused = second.message.blocks.filter((b) => first.message.blocks.includes(b)).length;
    assert.equal(reused, sections.length - 1, 'all but the changed Files section');
    assert.equal(messageText(second.message), joined(changed));
  });

  it('is the same message when no section changed', () => {
    const first = contextMessage(sections);
    assert.equal(contextMessage([...sections], first), first);
  });

  it('gives the right text when a section moves to or from the first place', () => {
    const withoutHeading = sections.slice(1);
    const before = contextMessage(withoutHeading);
    const after = contextMessage(sections, before);
    const back = contextMessage(withoutHeading, after);
    assert.ok(after && back);
    assert.equal(messageText(after.message), joined(sections));
    assert.equal(messageText(back.message), joined(withoutHeading));
  });

  it('is absent when there are no sections', () => {
    assert.equal(contextMessage([]), undefined);
  });
});
