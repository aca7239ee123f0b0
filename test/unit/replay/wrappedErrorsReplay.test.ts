import * as assert from 'node:assert/strict';
import type { Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { compressedContext, replayAtShareOfInput, unrelatedReads } from '../support/replayShare';
import { seededRandom } from '../tokens/seededRandom';

/** Failures whose cause ends a line of wrapped errors longer than a fact's text, and that cause. */
const FAILURES = [0, 1, 2, 3].map((i) => ({
  command: `./bin/release --stage ${i}`,
  line:
    `Error: release of bundle storefront-${i} to bucket assets-prod-${i} aborted after 3 attempts: upload ` +
    `s3://assets-prod-${i}/storefront/${i}/main.${i}f3c.js: operation error S3: PutObject, https response error ` +
    `StatusCode: 400, RequestID: 9QX${i}: api error EntityTooLarge: object of ${600 + i} MB exceeds the limit`,
  cause: `api error EntityTooLarge: object of ${600 + i} MB exceeds the limit`,
}));

/**
 * A release that fails four times, unlike the shared transcripts: each failure is one long line whose cause is its
 * last part, then a long stretch of unrelated reads pushes the failures out of the live context.
 */
function releaseSession(seed: number): Message[] {
  const next = seededRandom(seed);
  const messages: Message[] = [user('Release the storefront bundles.')];
  FAILURES.forEach((f, i) => {
    messages.push(call(`f${i}`, 'bash', { command: f.command }));
    messages.push(result(`f${i}`, ['uploading…', f.line, 'exit status 1'].join('\n'), true));
    messages.push(assistant('That stage failed; I will come back to it.'));
  });
  messages.push(...unrelatedReads(40, next, (k, n) => `GET /p/${k} ${200 + (k % 3)} ${Math.floor(n() * 900)}ms`));
  return messages;
}

describe('replaying a session whose failures are long lines of wrapped errors', () => {
  for (const seed of [1, 2]) {
    it(`keeps each failure's cause, the part its line ends with, at half the input (seed ${seed})`, async () => {
      const replay = await replayAtShareOfInput(releaseSession(seed));
      const context = compressedContext(replay, 'f0');
      const lost = FAILURES.filter((f) => !context.includes(f.cause)).map((f) => f.cause);
      assert.deepEqual(lost, [], `${replay.figures.finalTokens} of ${replay.figures.budget} tokens`);
      assert.ok(
        FAILURES.every((f) => context.includes(`release of bundle storefront-${FAILURES.indexOf(f)}`)),
        'and what failed',
      );
    });
  }
});
