import * as assert from 'node:assert/strict';
import { cutWhereItEnds, fitSections, MIN_SHORTENED_CHARS, PRIORITY, type FitSection } from '../../../src/engine/summary/fitLines';

const countWords = (text: string) => Promise.resolve(text.split(/\s+/).filter((w) => w.length > 0).length);

/** Decisions, then the phase and next steps that restate one of them, as a span ending on its last decision produces. */
function restatingSections(): FitSection[] {
  return [
    {
      heading: '### Key Decisions',
      required: [],
      groups: [
        {
          numbered: true,
          lines: [
            { text: 'Cache the parsed manifest per workspace folder.', priority: PRIORITY.useful },
            { text: 'Run the migration script before the integration tests.', priority: PRIORITY.useful },
          ],
        },
      ],
    },
    {
      heading: '### Current Progress',
      required: [],
      groups: [{ lines: [{ text: '- **Phase:** Run the migration script before the integration tests.', priority: PRIORITY.important }] }],
    },
    {
      heading: '### Next Steps',
      required: [],
      groups: [
        {
          numbered: true,
          lines: [{ text: '[NEXT] run the migration script  before the integration tests.', priority: PRIORITY.essential }],
        },
      ],
    },
  ];
}

describe('fitting a summary into its target', () => {
  it('says a sentence once when sections restate it, whatever their labels, case or spacing', async () => {
    const text = await fitSections('## Summary', restatingSections(), 1000, countWords);
    assert.equal(text.match(/migration script/gi)?.length, 1, text);
    assert.match(text, /Cache the parsed manifest/);
    // The section left with nothing to say is left out, heading and all.
    assert.doesNotMatch(text, /Current Progress/);
  });

  it('keeps the copy of a restated sentence that matters most when the target is tight', async () => {
    const text = await fitSections('## Summary', restatingSections(), 30, countWords);
    assert.match(text, /\[NEXT\] run the migration script/);
    assert.equal(text.match(/migration script/gi)?.length, 1, text);
  });

  /** An outcome that a command's line says word for word, and a decision that needs the room the outcome took. */
  function sayingTwiceSections(): FitSection[] {
    return [
      {
        heading: '### Current Progress',
        required: [],
        groups: [
          {
            lines: [
              { text: '- Ran `npm run migrate` (exit 0): 14 tables moved to the archive schema', priority: PRIORITY.useful },
              { text: '- Chose to keep the audit table where it is.', priority: PRIORITY.detail },
            ],
          },
        ],
      },
      {
        heading: '### Critical Facts',
        required: [],
        groups: [{ lines: [{ text: '- Outcome: 14 tables moved to the archive schema', priority: PRIORITY.important }] }],
      },
    ];
  }

  it('leaves out a line that another line says word for word, and gives its room to the next line', async () => {
    const tight = await fitSections('## Summary', sayingTwiceSections(), 40, countWords);
    assert.equal(tight.match(/14 tables moved/g)?.length, 1, tight);
    assert.match(tight, /Ran `npm run migrate`/);
    assert.match(tight, /keep the audit table/, 'the room of the line said twice went to the next line');
    const roomy = await fitSections('## Summary', sayingTwiceSections(), 1000, countWords);
    assert.equal(roomy.match(/14 tables moved/g)?.length, 1, roomy);
    assert.doesNotMatch(roomy, /Critical Facts/, 'a section whose only line is said elsewhere is left out');
  });

  it('shows a stand-in for a table only when none of its rows is shown, at every target', async () => {
    const sections: FitSection[] = [
      {
        heading: '### Artifacts Created',
        required: [],
        groups: [
          {
            header: ['| Artifact | Path | Status |', '|---|---|---|'],
            lines: [{ text: '| cache.ts | src/store/cache.ts | modified |', priority: PRIORITY.important }],
          },
          { lines: [{ text: '- Changed: cache.ts (modified)', priority: PRIORITY.important, shortenable: true, fallback: true }] },
        ],
      },
      {
        heading: '### Critical Facts',
        required: [],
        groups: [{ lines: [{ text: '- Outcome: the cache now expires entries after 60 seconds', priority: PRIORITY.important }] }],
      },
    ];
    const shown = new Set<string>();
    for (let target = 8; target <= 60; target++) {
      const text = await fitSections('## Summary', sections, target, countWords);
      const row = text.includes('| cache.ts |');
      const standIn = text.includes('Changed: cache.ts');
      assert.ok(!(row && standIn), `target ${target}:\n${text}`);
      shown.add(row ? 'row' : standIn ? 'stand-in' : 'neither');
    }
    assert.ok(shown.has('row') && shown.has('stand-in'), [...shown].join(', '));
  });

  it('cuts a line where an item of its list or a word ends, never inside a name, or leaves it out', () => {
    const named = '- Named: sympy/core/relational.py, sympy/logic/boolalg.py, sympy/solvers/inequalities.py';
    assert.equal(cutWhereItEnds(named, 70), '- Named: sympy/core/relational.py, sympy/logic/boolalg.py, …');
    assert.equal(cutWhereItEnds(named, 50), '- Named: sympy/core/relational.py, …');
    assert.equal(cutWhereItEnds(named, 30), undefined, 'not even one whole name fits');
    const phase = '- **Phase:** verifying that the cache expires entries after sixty seconds in every region';
    const cut = cutWhereItEnds(phase, 60);
    assert.ok(cut !== undefined && cut.length <= 60 && cut.endsWith('…') && phase.startsWith(cut.slice(0, -1)), cut);
    assert.match(cut ?? '', / \S+…$/, 'a whole word before the ellipsis');
    assert.ok(phase.includes(`${(cut ?? '').slice(0, -1).split(' ').pop()} `), 'the last word kept is whole');
    assert.equal(cutWhereItEnds('short line', MIN_SHORTENED_CHARS), 'short line');
  });
});
