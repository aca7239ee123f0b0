import * as assert from 'node:assert/strict';
import { fitSections, PRIORITY, type FitSection } from '../../../src/engine/summary/fitLines';

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
});
