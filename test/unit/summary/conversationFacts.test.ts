import * as assert from 'node:assert/strict';
import {
  conversationFactsOf,
  NOTHING_SAID,
  readConversationFacts,
  saidAfter,
  type SpanSaid,
} from '../../../src/engine/summary/conversationFacts';
import type { Message } from '../../../src/engine/types';
import { seededRandom } from '../tokens/seededRandom';
import { assistant, call, result, user } from '../support/builders';

/** Runs of seeded conversations, each read whole and as a span grown by appends. */
const RUNS = 150;

/** One message of a conversation: prose, plans, markers, tool traffic, in seeded proportions. */
function randomMessage(random: () => number, i: number): Message {
  const roll = random();
  const word = ['parser', 'cache', 'router', 'schema', 'build'][Math.floor(random() * 5)];
  if (roll < 0.15) return user(`Please fix the ${word} next.`, `u${i}`);
  if (roll < 0.3) return assistant(`[DECISION] keep the ${word} as it is ${i}\n[NEXT] test the ${word}`, `a${i}`);
  if (roll < 0.45) return assistant(`The ${word} works now. Next I'll check the ${word} tests ${i}.`, `a${i}`);
  if (roll < 0.55) return assistant(`[GOAL] ship the ${word} ${i}`, `a${i}`);
  if (roll < 0.7) return assistant(`Looked at the ${word} ${i}; nothing stands out.`, `a${i}`);
  if (roll < 0.85) return { ...call(`c${i}`, 'Bash', { command: `npm test -- ${word}` }), id: `a${i}` };
  return { ...result(`c${i - 1}`, `[DECISION] from a tool: ${word}`), id: `t${i}` };
}

describe('conversation facts of a span that grows', () => {
  it(`reads a span that grows at its end, going on from what its start said, as reading it whole, over ${RUNS} seeded conversations`, () => {
    for (let run = 0; run < RUNS; run++) {
      const random = seededRandom(500 + run);
      const messages = Array.from({ length: 5 + Math.floor(random() * 60) }, (_, i) => randomMessage(random, i));
      let said: SpanSaid = NOTHING_SAID;
      let at = 0;
      while (at < messages.length) {
        const next = Math.min(messages.length, at + 1 + Math.floor(random() * 12));
        said = saidAfter(said, messages.slice(at, next));
        at = next;
        assert.deepEqual(conversationFactsOf(said), readConversationFacts(messages.slice(0, at)), `run ${run}, ${at} messages`);
      }
    }
  });

  it('reads only the messages added to a span it read before: what it found there is carried over as it was', () => {
    const first = saidAfter(NOTHING_SAID, [
      user('Please fix the parser.', 'u1'),
      assistant('[DECISION] keep the parser\n[GOAL] ship it', 'a1'),
    ]);
    const before = conversationFactsOf(first);
    const after = conversationFactsOf(saidAfter(first, [call('c1', 'Bash', { command: 'npm test' }), result('c1', 'ok')]));
    assert.equal(after.markers.DECISION, before.markers.DECISION);
    assert.equal(after.markers.GOAL, before.markers.GOAL);
    assert.deepEqual(after.markers.DECISION, ['keep the parser']);
  });

  it('keeps the plan of an earlier part when the messages added since state none, and the phase of the last prose', () => {
    const first = saidAfter(NOTHING_SAID, [assistant('Now let me rerun the suite.', 'a1'), user('ok', 'u1')]);
    const facts = conversationFactsOf(saidAfter(first, [assistant('[NEXT] release it', 'a2'), assistant('Everything is green.', 'a3')]));
    assert.deepEqual(facts.plan, ['Now let me rerun the suite.']);
    assert.equal(facts.phase, 'Everything is green.');
    assert.deepEqual(facts.markers.NEXT, ['release it']);
  });

  it('leaves out of the plan a short sentence that only introduces the block after it, and keeps one that names what it changes', () => {
    const facts = readConversationFacts([
      assistant('I will change the retry limit in `src/queue.ts`.\nI will replace:\n```ts\nconst limit = 3;\n```', 'a1'),
    ]);
    assert.deepEqual(facts.plan, ['I will change the retry limit in `src/queue.ts`.']);
    const named = readConversationFacts([assistant('I will replace `parseRow` with:\n```ts\nparseLine\n```', 'a2')]);
    assert.deepEqual(named.plan, ['I will replace `parseRow` with:']);
    const figure = readConversationFacts([assistant('Let me set it to 60:\n```ts\nttl = 60\n```', 'a3')]);
    assert.deepEqual(figure.plan, ['Let me set it to 60:']);
  });
});
