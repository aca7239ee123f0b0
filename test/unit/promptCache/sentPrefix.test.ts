import * as assert from 'node:assert/strict';
import { SentPrefix } from '../../../src/engine/promptCache/sentPrefix';
import { message, textBlock, type Message } from '../../../src/engine/types';

const m = (id: string, text: string): Message => message(id, 'user', [textBlock(text)]);

describe('what each request sent shares with the one before', () => {
  it('reads the leading messages the previous request sent the same as reused, and the rest as new', () => {
    const prefix = new SentPrefix();
    const a = m('a', 'first');
    const b = m('b', 'second');
    assert.deepEqual(prefix.record([a], [10]), { sentTokens: 10, reusedTokens: 0, invalidatedTokens: 0 }, 'a first request reuses nothing');
    assert.deepEqual(prefix.record([a, b], [10, 5]), { sentTokens: 15, reusedTokens: 10, invalidatedTokens: 0 });
    assert.deepEqual(prefix.record([a, b, m('c', 'third')], [10, 5, 7]), { sentTokens: 22, reusedTokens: 15, invalidatedTokens: 0 });
  });

  it('counts a rewrite of something already sent as a rebase: everything after it is read anew', () => {
    const prefix = new SentPrefix();
    const a = m('a', 'first');
    prefix.record([a, m('b', 'second'), m('c', 'third')], [10, 5, 7]);
    const reuse = prefix.record([a, m('b', 'second, shortened'), m('c', 'third'), m('d', 'new')], [10, 3, 7, 4]);
    assert.deepEqual(reuse, { sentTokens: 24, reusedTokens: 10, invalidatedTokens: 12 });
  });

  it('knows a message by its content when a reload made it a new object', () => {
    const prefix = new SentPrefix();
    prefix.record([m('a', 'first')], [10]);
    assert.equal(prefix.record([m('a', 'first'), m('b', 'next')], [10, 2]).reusedTokens, 10);
    assert.equal(prefix.record([m('a', 'changed')], [10]).reusedTokens, 0);
  });

  it('starts over after it forgets what was sent', () => {
    const prefix = new SentPrefix();
    const a = m('a', 'first');
    prefix.record([a], [10]);
    prefix.forget();
    assert.equal(prefix.record([a], [10]).reusedTokens, 0);
  });
});
