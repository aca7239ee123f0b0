import * as assert from 'node:assert/strict';
import { ConversationIndex } from '../../../src/engine/conversation/conversationIndex';
import { ConversationTrack } from '../../../src/engine/conversation/track';

const track = (sessionId: string, chain: readonly string[]) =>
  new ConversationTrack(
    sessionId,
    chain.map((c, i) => ({ chain: c, digest: c, ids: [`${sessionId}-m${i}`] })),
  );

describe('conversation index', () => {
  it('continues a track when the request starts with all of it', () => {
    const index = new ConversationIndex();
    index.add(track('s1', ['a', 'b', 'c']));
    const match = index.match(['a', 'b', 'c', 'd', 'e']);
    assert.equal(match.kind, 'continue');
    assert.equal(match.kind === 'continue' && match.track.sessionId, 's1');
  });

  it('continues a track when the request re-sends exactly what it holds', () => {
    const index = new ConversationIndex();
    index.add(track('s1', ['a', 'b']));
    assert.equal(index.match(['a', 'b']).kind, 'continue');
  });

  it('branches a track at the first message the request changes', () => {
    const index = new ConversationIndex();
    index.add(track('s1', ['a', 'b', 'c', 'd']));
    assert.deepEqual(index.match(['a', 'b', 'x']), { kind: 'branch', track: index.get('s1'), common: 2 });
    // A request that stops inside the track (a regenerated answer) branches there too.
    assert.deepEqual(index.match(['a', 'b']), { kind: 'branch', track: index.get('s1'), common: 2 });
  });

  it('starts a new conversation when no track starts like the request', () => {
    const index = new ConversationIndex();
    index.add(track('s1', ['a', 'ab']));
    assert.deepEqual(index.match(['x', 'xb']), { kind: 'new' });
    assert.deepEqual(index.match([]), { kind: 'new' });
  });

  it('prefers the branch that ends where the request goes on over the longer track it came from', () => {
    const index = new ConversationIndex();
    index.add(track('parent', ['a', 'b', 'c', 'd']));
    index.add(track('branch', ['a', 'b']));
    const match = index.match(['a', 'b', 'y']);
    assert.equal(match.kind === 'continue' && match.track.sessionId, 'branch');
  });

  it('follows a track as it grows and forgets a removed one', () => {
    const index = new ConversationIndex();
    const t = track('s1', ['a']);
    index.add(t);
    index.extend(t, [{ chain: 'b', digest: 'b', ids: ['m1'] }]);
    assert.equal(index.match(['a', 'b', 'c']).kind, 'continue');
    index.remove('s1');
    assert.equal(index.match(['a', 'b', 'c']).kind, 'new');
  });
});
