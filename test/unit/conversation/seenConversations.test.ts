import * as assert from 'node:assert/strict';
import { chainOf, messageDigest, type DigestInput } from '../../../src/engine/conversation/digest';
import { sameJson } from '../../../src/engine/conversation/sameMessage';
import { SeenConversations } from '../../../src/engine/conversation/seenConversations';
import { agentTurn, resent, say } from '../support/callerConversation';

/** A digest function that counts what it hashes. */
function countingDigest() {
  const hashed: DigestInput[] = [];
  return { hashed, digest: (m: DigestInput) => (hashed.push(m), messageDigest(m)) };
}

describe('conversations seen in recent requests', () => {
  it('hashes only the messages after the part seen in the previous request, and gives the same chain as hashing all', () => {
    const { hashed, digest } = countingDigest();
    const seen = new SeenConversations(4, digest);
    const first = [say('Start.'), ...agentTurn(1, 'ok')];
    seen.remember('s1', seen.chainFor(first).seen);
    assert.equal(hashed.length, 4);

    const next = [...resent(first), ...agentTurn(2, 'ok')];
    hashed.length = 0;
    const chained = seen.chainFor(next);
    assert.equal(hashed.length, 3, 'the four re-sent messages were compared, not hashed');
    assert.equal(chained.hashed, 3);
    assert.deepEqual(chained.chain, chainOf(next.map(messageDigest)));
  });

  it('hashes again from the first message that changed', () => {
    const { hashed, digest } = countingDigest();
    const seen = new SeenConversations(4, digest);
    const first = [say('Start.'), ...agentTurn(1, 'ok'), say('More.')];
    seen.remember('s1', seen.chainFor(first).seen);
    const edited = [...resent(first.slice(0, 2)), ...agentTurn(1, 'changed output').slice(1)];
    hashed.length = 0;
    const chained = seen.chainFor(edited);
    assert.equal(chained.hashed, 2);
    assert.deepEqual(chained.chain, chainOf(edited.map(messageDigest)));
  });

  it('picks the remembered conversation that shares the most, and forgets the least recently used beyond its limit', () => {
    const seen = new SeenConversations(2);
    const a = [say('A'), ...agentTurn(1, 'a')];
    const b = [say('B'), ...agentTurn(1, 'b')];
    const c = [say('C')];
    seen.remember('a', seen.chainFor(a).seen);
    seen.remember('b', seen.chainFor(b).seen);
    assert.equal(seen.chainFor(resent(b)).hashed, 0);
    assert.equal(seen.chainFor(resent(a)).hashed, 0);
    seen.remember('c', seen.chainFor(c).seen);
    assert.equal(seen.chainFor(resent(a)).hashed, 4, 'a was the least recently remembered, so it was forgotten');
    assert.equal(seen.chainFor(resent(b)).hashed, 0);
  });

  it('compares tool inputs as JSON values, whatever their key order', () => {
    assert.ok(sameJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }));
    assert.ok(!sameJson({ a: 1 }, { a: 1, b: undefined }));
    assert.ok(!sameJson([1, 2], { 0: 1, 1: 2 }));
    assert.ok(!sameJson({ a: [1, 2] }, { a: [2, 1] }));
  });
});
