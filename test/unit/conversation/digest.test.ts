import * as assert from 'node:assert/strict';
import { canonicalJson, chainOf, messageDigest } from '../../../src/engine/conversation/digest';
import { textBlock, toolCallBlock, toolResultBlock } from '../../../src/engine/types';
import { callTool, fromCaller, say, toolOutput } from '../support/callerConversation';

describe('message digests', () => {
  it('gives a re-sent message the same digest, whatever the order of its tool input keys', () => {
    const first = messageDigest({ role: 'assistant', blocks: [toolCallBlock('c1', 'edit', { path: 'a.ts', text: 'x' })], extra: [] });
    const again = messageDigest({ role: 'assistant', blocks: [toolCallBlock('c1', 'edit', { text: 'x', path: 'a.ts' })], extra: [] });
    assert.equal(first, again);
  });

  it('tells apart messages that differ in one character, in their role, or in how their text is split', () => {
    const base = messageDigest({ role: 'tool', blocks: [toolResultBlock('c1', 'exit code 0')], extra: [] });
    assert.notEqual(base, messageDigest({ role: 'tool', blocks: [toolResultBlock('c1', 'exit code 1')], extra: [] }));
    assert.notEqual(base, messageDigest({ role: 'tool', blocks: [toolResultBlock('c1', 'exit code 0', true)], extra: [] }));
    const split = messageDigest({ role: 'user', blocks: [textBlock('ab'), textBlock('c')], extra: [] });
    assert.notEqual(split, messageDigest({ role: 'user', blocks: [textBlock('a'), textBlock('bc')], extra: [] }));
    assert.notEqual(
      messageDigest({ role: 'user', blocks: [textBlock('hi')], extra: [] }),
      messageDigest({ role: 'system', blocks: [textBlock('hi')], extra: [] }),
    );
  });

  it('counts content outside the blocks (an image) but not the caller object itself', () => {
    const plain = fromCaller('user', [textBlock('[image/png, 10 bytes]')]);
    const image = fromCaller('user', [textBlock('[image/png, 10 bytes]')], ['image/png:10:abc']);
    const other = fromCaller('user', [textBlock('[image/png, 10 bytes]')], ['image/png:10:def']);
    assert.notEqual(messageDigest(plain), messageDigest(image));
    assert.notEqual(messageDigest(image), messageDigest(other));
  });

  it('gives two conversations the same chain digests exactly up to their first different message', () => {
    const a = [say('fix the build'), callTool('c1', 'run', { cmd: 'make' }), toolOutput('c1', 'error: x'), say('thanks')];
    const b = [say('fix the build'), callTool('c1', 'run', { cmd: 'make' }), toolOutput('c1', 'error: y'), say('thanks')];
    const chainA = chainOf(a.map(messageDigest));
    const chainB = chainOf(b.map(messageDigest));
    assert.deepEqual(chainA.slice(0, 2), chainB.slice(0, 2));
    assert.notEqual(chainA[2], chainB[2]);
    // Position 3 is the same message in both, but what came before differs.
    assert.equal(messageDigest(a[3]), messageDigest(b[3]));
    assert.notEqual(chainA[3], chainB[3]);
  });

  it('writes JSON with sorted keys at every depth', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [{ f: 1, e: 2 }], c: null } }), '{"a":{"c":null,"d":[{"e":2,"f":1}]},"b":1}');
  });
});
