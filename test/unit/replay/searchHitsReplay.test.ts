import * as assert from 'node:assert/strict';
import { assistant, call, result, user } from '../support/builders';
import { compressedContext, replayAtShareOfInput, unrelatedReads } from '../support/replayShare';
import { seededRandom } from '../tokens/seededRandom';
import type { Message } from '../../../src/engine/types';

/** Lines of a help centre's sources that speak of failures: what a search for the words of an error prints. */
const HITS = [
  'docs/errors.md:12:- Connection refused means the queue service is down',
  "src/copy.ts:17:  missingConfig: 'Config file could not be read',",
  'src/copy.ts-18-  expired: "Token expired: permission denied",',
  'docs/faq.md:40:If the build fails with "module not found", run the install again.',
];
/** What the session met: the error of a failed run. */
const MET = "Error: Cannot find module './copy/en' from 'src/help.ts'";

/**
 * A help-centre session unlike the shared transcripts: the agent searches the sources for the words of an error and
 * finds lines that speak of failures, then meets an error of its own, then reads unrelated files that push the
 * first third out of the live context.
 */
function helpCentreSession(seed: number): Message[] {
  const next = seededRandom(seed);
  return [
    user('The help page shows a blank panel: find out why.'),
    assistant('I search the sources for the messages the panel shows.'),
    call('g1', 'bash', { command: 'grep -rn -C1 "refused\\|denied\\|not found\\|could not" docs src | head -40' }),
    result('g1', HITS.join('\n')),
    assistant('Those are the texts of the messages. I run the page test next.'),
    call('t1', 'bash', { command: 'npx jest src/help.test.ts' }),
    result('t1', ['FAIL src/help.test.ts', `  ● help › renders the panel`, '', `    ${MET}`].join('\n'), true),
    assistant('The English copy moved: I point the import at the new folder.'),
    ...unrelatedReads(40, next, (k, n) => `entry ${k} weight ${Math.floor(n() * 1000)}`),
  ];
}

describe("replaying a session whose search printed files' lines that speak of failures", () => {
  for (const seed of [1, 2]) {
    it(`keeps the error the session met and files none of the search's hits as an error (seed ${seed})`, async () => {
      const context = compressedContext(await replayAtShareOfInput(helpCentreSession(seed)), 'g1');
      assert.ok(context.includes(MET), 'the error of the failed run is kept verbatim');
      const filed = context.split('\n').filter((line) => /\bError\b/.test(line) && HITS.some((hit) => line.includes(hit.slice(-30))));
      assert.deepEqual(filed, [], 'no line of the search is filed as an error');
    });
  }
});
