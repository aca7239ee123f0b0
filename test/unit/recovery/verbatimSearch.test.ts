import * as assert from 'node:assert/strict';
import { archivedRunOf } from '../../../src/engine/model/archivedMessages';
import { RecoveryIndex } from '../../../src/engine/recovery/recoveryIndex';
import { COMMON_TERM_PASSAGES, COMMON_TERM_SHARE, RARE_QUERY_TERMS, TermRarity } from '../../../src/engine/recovery/termRarity';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { messageContentText, type Message } from '../../../src/engine/types';
import { assistant, user } from '../support/builders';

const SESSION = 's-20261122-101500-verbatim';

/** A seeded session of routine sentences over a small shared vocabulary, with a few words of its own in each message. */
function routineSession(count: number): Message[] {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const common = ['the', 'build', 'step', 'ran', 'again', 'for', 'module', 'and', 'checked', 'output', 'logs', 'service', 'update'];
  const messages: Message[] = [];
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 14 }, () => common[next() % common.length]);
    words.splice(next() % words.length, 0, `ledger${i}`, `shard${(i * 7) % count}`, `zone${i % 37}x${i % 11}`);
    messages.push(i % 2 === 0 ? user(words.join(' '), `m${i}`) : assistant(words.join(' '), `m${i}`));
  }
  return messages;
}

async function indexOf(messages: readonly Message[]): Promise<RecoveryIndex> {
  const index = RecoveryIndex.forSession(new MemoryStore(), SESSION);
  await index.takeIn(SESSION, {
    offloadedFolder: `sessions/${SESSION}/offloaded`,
    offloadedNames: [],
    skippedEntries: [],
    origins: new Map(),
    archivePath: `sessions/${SESSION}/archive.jsonl`,
    messages: archivedRunOf(messages),
    readMessages: (ids) => Promise.resolve(ids.map((id) => messages.find((m) => m.id === id))),
    unreadableLines: [],
  });
  return index;
}

describe('verbatim search: the rarest words of a text find its passage', () => {
  it('picks the rarest known terms, leaves out words too common to tell passages apart, and ignores words never indexed', () => {
    const rarity = new TermRarity();
    for (let i = 0; i < 100; i++) {
      rarity.countPassage(new Set(['the', 'build', ...(i < 3 ? ['replica'] : []), ...(i === 0 ? ['pool'] : [])]));
    }
    assert.deepEqual(rarity.rarest(['the', 'pool', 'replica', 'build', 'unseen'], 100), ['pool', 'replica']);
  });

  it('keeps the single rarest word when every word of the text is common, so a search still runs', () => {
    const rarity = new TermRarity();
    for (let i = 0; i < 100; i++) rarity.countPassage(new Set(i < 60 ? ['the', 'build'] : ['the']));
    assert.deepEqual(rarity.rarest(['the', 'build'], 100), ['build']);
  });

  it(`keeps at most ${RARE_QUERY_TERMS} words, the rarest first`, () => {
    const rarity = new TermRarity();
    const words = Array.from({ length: 10 }, (_, i) => `w${i}`);
    // w0 in one passage, w1 in two…: all well under the common share of 1,000 passages.
    words.forEach((w, i) => {
      for (let n = 0; n <= i; n++) rarity.countPassage(new Set([w]));
    });
    assert.ok(10 <= 1_000 * COMMON_TERM_SHARE);
    assert.deepEqual(rarity.rarest([...words].reverse(), 1_000), words.slice(0, RARE_QUERY_TERMS));
  });

  it('finds the message a verbatim slice came from among the first three hits, for every slice of a long routine session', async () => {
    const messages = routineSession(600);
    const index = await indexOf(messages);
    for (let i = 5; i < messages.length; i += 37) {
      const text = messageContentText(messages[i]);
      const words = text.split(' ');
      const own = words.indexOf(`ledger${i}`);
      const slice = words.slice(Math.max(0, own - 4), own + 6).join(' ');
      const hits = await index.search(slice, { top: 3, exactTerms: true });
      assert.ok(
        hits.some((h) => h.messageId === `m${i}`),
        `m${i}: "${slice}" → ${hits.map((h) => h.messageId).join(', ')}`,
      );
    }
  });

  it('finds nothing for a text none of whose words were ever indexed, and no error', async () => {
    const index = await indexOf(routineSession(50));
    assert.deepEqual(await index.search('quartz nebula', { exactTerms: true }), []);
  });
});

describe('verbatim search in a very long session', () => {
  it(`treats a word in more than ${COMMON_TERM_PASSAGES} passages as common, however small a share of the session that is`, () => {
    const rarity = new TermRarity();
    for (let i = 0; i < 20_000; i++) {
      rarity.countPassage(new Set([...(i < COMMON_TERM_PASSAGES + 100 ? ['frequent'] : []), ...(i < 50 ? ['scarce'] : [])]));
    }
    assert.ok(COMMON_TERM_PASSAGES + 100 < 20_000 * COMMON_TERM_SHARE, 'under the common share');
    assert.deepEqual(rarity.rarest(['frequent', 'scarce'], 20_000), ['scarce']);
  });
});

describe('verbatim search of a text with no distinctive word', () => {
  it(`finds nothing when even its rarest word is in more than ${COMMON_TERM_PASSAGES} passages: no search could tell its passage apart`, () => {
    const rarity = new TermRarity();
    for (let i = 0; i < 20_000; i++) {
      rarity.countPassage(new Set(i < COMMON_TERM_PASSAGES + 1 ? ['frequent', 'everywhere'] : ['everywhere']));
    }
    assert.deepEqual(rarity.rarest(['frequent', 'everywhere'], 20_000), []);
  });
});
