import * as assert from 'node:assert/strict';
import { messageText, type Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { replayAtShareOfInput } from '../support/replayShare';
import { seededRandom } from '../tokens/seededRandom';

/**
 * The helpers the early edits write: each named only in its edit's input, below the comment and the import the edit
 * opens with.
 */
const HELPERS = ['clampLoanDays', 'overdueFineCents', 'normalizeIsbn', 'reserveNextCopy'] as const;

/**
 * A lending library's fixes, unlike the shared transcripts: four early edits, each putting in a comment, an import and
 * a helper, confirmed by one line that names the file but not the helper, then a long stretch of unrelated reads that
 * pushes the edits out of the live context.
 */
function lendingSession(seed: number): Message[] {
  const next = seededRandom(seed);
  const messages: Message[] = [
    user('Loans run past their limit, fines are off by a day, ISBNs with dashes fail and holds skip the queue. Fix them.'),
  ];
  HELPERS.forEach((helper, i) => {
    const file = `src/lending/${['loans', 'fines', 'catalog', 'holds'][i]}.ts`;
    messages.push(call(`r${i}`, 'read_file', { path: file }));
    messages.push(
      result(
        `r${i}`,
        Array.from({ length: 60 }, (_, k) => `${k + 1}\tconst v${k} = lookup${k}(record, ${Math.floor(next() * 99)});`).join('\n'),
      ),
    );
    messages.push(
      call(`e${i}`, 'edit_file', {
        path: file,
        old_string: 'const v0 = lookup0(record, 1);',
        new_string: [
          `// ${['loans', 'fines', 'catalog', 'holds'][i]} read the date once`,
          `import { today${i} } from "../clock";`,
          '',
          `export function ${helper}(record: LoanRecord): number {`,
          `  return Math.max(0, record.value${i} - today${i}());`,
          '}',
          'const v0 = lookup0(record, 1);',
        ].join('\n'),
      }),
    );
    messages.push(result(`e${i}`, `Edited ${file}.`));
    messages.push(assistant(`That one is fixed in ${file}.`));
  });
  for (let turn = 0; turn < 40; turn++) {
    messages.push(user(`Check report ${turn} for anything odd.`));
    messages.push(call(`p${turn}`, 'read_file', { path: `reports/r${turn}.csv` }));
    messages.push(
      result(
        `p${turn}`,
        Array.from({ length: 50 + Math.floor(next() * 60) }, (_, k) => `${k},${Math.floor(next() * 9000)},branch-${k % 7}`).join('\n'),
      ),
    );
    messages.push(assistant(`Report ${turn} looks ordinary.`));
  }
  return messages;
}

describe('replaying a session whose early edits each opened with a comment, then an import and a helper', () => {
  for (const seed of [1, 2]) {
    it(`keeps every import and every helper's name in the final context at half the input (seed ${seed})`, async () => {
      const { final, figures } = await replayAtShareOfInput(lendingSession(seed));
      assert.ok(figures.checkpoints > 0, 'the session was compressed');
      const live = final?.messages ?? [];
      assert.ok(!live.some((m) => m.blocks.some((b) => b.type === 'toolCall' && b.id === 'e3')), 'the edits are no longer live');
      const context = live.map(messageText).join('\n');
      const lost = [...HELPERS, ...HELPERS.map((_, i) => `import { today${i} } from "../clock";`)].filter(
        (line) => !context.includes(line),
      );
      assert.deepEqual(lost, [], `${figures.finalTokens} of ${figures.budget} tokens`);
    });
  }
});
