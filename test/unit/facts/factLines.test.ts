import * as assert from 'node:assert/strict';
import { compactText, factLine } from '../../../src/engine/facts/factLines';
import { editFacts } from '../../../src/engine/recall/fileFacts';

const where = { messageId: 'm1', seq: 1 };

describe('a fact line is cut where its code is whole', () => {
  // An edit that puts in a helper whose body closes within the lines an edit's change may join: one value on one line,
  // longer than a fact's line, whose signature alone holds the fact's key.
  const helper = [
    'func keepVisibleForViewer(items []Item, hidden string, viewer Viewer, options RenderOptions, limit int) []Item {',
    '\tvar kept []Item',
    '\tfor _, item := range items {',
    '\t\tif !strings.HasPrefix(item.Name, hidden) {',
    '\t\t\tkept = append(kept, item)',
    '\t\t}',
    '\t}',
    '\treturn kept',
    '}',
  ].join('\n');
  const facts = editFacts({ old_string: 'func render() {', new_string: `${helper}\n\nfunc render() {` }, 'web/list.go', where);
  const added = facts.find((f) => f.text.startsWith('Now in list.go: func keepVisibleForViewer'));

  it('shows an edit that put in a whole definition by its signature, not cut inside its body', () => {
    assert.ok(added, 'the edit put in the helper');
    const signature =
      'Now in list.go: func keepVisibleForViewer(items []Item, hidden string, viewer Viewer, options RenderOptions, limit int) []Item…';
    assert.equal(added.text, signature);
    assert.equal(factLine(added), `Outcome: ${signature}`);
  });

  it('knows a change too long for its line by its head, so a short signature is shown whole and the body left out', () => {
    const body = ['\tvar kept []Item', '\tfor _, item := range items {', '\t\tif !strings.HasPrefix(item.Name, hidden) {'];
    const short = [
      'func keepVisible(items []Item, hidden string) []Item {',
      ...body,
      '\t\t\tkept = append(kept, item)',
      '\t\t}',
      '\t}',
      '\treturn kept',
      '}',
    ];
    const [fact] = editFacts({ old_string: 'func render() {', new_string: `${short.join('\n')}\n\nfunc render() {` }, 'web/list.go', where);
    assert.equal(fact.key, 'func keepVisible(items []Item, hidden string) []Item');
    assert.equal(factLine(fact), 'Outcome: Now in list.go: func keepVisible(items []Item, hidden string) []Item…');
  });

  it("keeps a change longer than a fact's text whole up to the value it opens, not cut inside it", () => {
    const lines = [
      'func keepVisible(items []Item, hidden string) []Item {',
      ...Array.from({ length: 5 }, (_, i) => `\tkept${i} := filterByPrefix(items, hidden, ${i})`),
      '\treturn kept4',
      '}',
    ];
    const [fact] = editFacts({ old_string: 'func render() {', new_string: `${lines.join('\n')}\n\nfunc render() {` }, 'web/list.go', where);
    assert.equal(fact.text, 'Now in list.go: func keepVisible(items []Item, hidden string) []Item…');
  });

  it('cuts prose as before when it leaves nothing open', () => {
    const text = `The importer now skips rows without a meter id and reports them at the end of the run. ${'It logs each skipped row once. '.repeat(4)}`;
    const fact = { kind: 'outcome' as const, key: 'the importer now skips rows without a meter id', text, messageId: 'm1', score: 0.5 };
    const shown = compactText(fact, 120);
    assert.ok(shown.endsWith('…') && shown.length <= 120);
    assert.ok(shown.startsWith('The importer now skips rows without a meter id and reports them at the end of the run.'));
  });
});
