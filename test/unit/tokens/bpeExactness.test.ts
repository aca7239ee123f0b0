import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { EncodingName } from '../../../src/engine/ports';
import { BpeTokenCounter } from '../../../src/engine/tokens/bpe';
import { rankData, referenceCount, referenceEncoder, type ReferenceEncoder } from './reference';
import { seededRandom } from './seededRandom';
import { rawChunks, transcriptFiles, transcriptStrings, TRANSCRIPTS_FOLDER } from './transcripts';

/** Per file and encoding: this much decoded string content and this much raw file text. */
const STRING_CHARS_PER_FILE = 120_000;
const RAW_CHARS_PER_FILE = 120_000;

/** Text that trips tokenizers: every case must count exactly as js-tiktoken counts it. */
const TRICKY_TEXTS: readonly string[] = [
  '',
  ' ',
  'Hello, world!',
  '<|endoftext|>',
  'before<|endoftext|>after <|endofprompt|> <|fim_prefix|>x<|fim_suffix|>',
  '👋🏽 family: 👨‍👩‍👧‍👦, flags: 🇫🇷🇯🇵, keycap: 1️⃣',
  '中文分词测试：上下文窗口管理。日本語のテキスト、한국어 텍스트',
  'e\u0301 a\u0300\u0316 Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319\u0324\u031e\u0349\u035a\u032f',
  '\ud800 lone high, lone low \udc00, reversed \udc00\ud800, at end \ud83d',
  'line one\r\nline two\r\n\r\n\tindented\r\n',
  ' '.repeat(1_000) + 'x' + '\n'.repeat(500) + '\t'.repeat(300),
  "It's they're we've I'm you'll he'd IT'S THEY'RE",
  'x = 12345678901234567890; y = 3.14159e-10; 1,000,000',
  'https://example.com/a/b?c=d&e=f#g ~/.config/ctx/sessions.json',
  'Привет, мир! Ελληνικά. עברית. العربية. हिन्दी.',
  '\u0000\u0001\u001f\u007f\u0080\u00ff\ufeff\ufffd\uffff',
];

/** A mixed alphabet for fuzzing: ASCII classes, CRLF, apostrophes, emoji, CJK, marks, surrogates. */
const FUZZ_ALPHABET: readonly string[] = [
  ...'aAbBzZ09 \t\n\r\'".,;:/\\-_(){}[]<>|!?#$%^&*+=~`'.split(''),
  '\r\n',
  "'s",
  "'LL",
  'ing',
  'the ',
  'é',
  'ß',
  'ñ',
  'е',
  'ж',
  '中',
  '文',
  '字',
  'の',
  '한',
  '\u0301',
  '\u0316',
  '😀',
  '👍🏿',
  '‍',
  '\ud800',
  '\udfff',
  '<|endoftext|>',
  '    ',
  '\n\n',
];

function fuzzText(random: () => number, maxUnits: number): string {
  const units = 1 + Math.floor(random() * maxUnits);
  let text = '';
  for (let i = 0; i < units; i++) text += FUZZ_ALPHABET[Math.floor(random() * FUZZ_ALPHABET.length)];
  return text;
}

function randomLetters(length: number, seed: number): string {
  const random = seededRandom(seed);
  let text = '';
  for (let i = 0; i < length; i++) text += String.fromCharCode(97 + Math.floor(random() * 26));
  return text;
}

/** The first index where our count differs from the reference, for a readable failure. */
function firstMismatch(texts: readonly string[], ours: BpeTokenCounter, reference: ReferenceEncoder): string | undefined {
  for (const [i, text] of texts.entries()) {
    const expected = referenceCount(reference, text);
    const actual = ours.count(text);
    if (actual !== expected) return `text #${i} (${text.length} chars, ${JSON.stringify(text.slice(0, 80))}…): ${actual} ≠ ${expected}`;
  }
  return undefined;
}

for (const encoding of ['o200k_base', 'cl100k_base'] satisfies EncodingName[]) {
  describe(`BpeTokenCounter (${encoding})`, function () {
    this.timeout(60_000);
    let reference: ReferenceEncoder;
    let ours: BpeTokenCounter;

    before(() => {
      reference = referenceEncoder(encoding);
      ours = new BpeTokenCounter(rankData(encoding));
    });

    it('counts every dev transcript exactly as js-tiktoken does, as strings and as raw chunks', function () {
      const files = transcriptFiles();
      assert.ok(files.length > 0, 'the shared transcripts are on this machine');
      let texts = 0;
      for (const [i, file] of files.entries()) {
        const sample = [...transcriptStrings(file, STRING_CHARS_PER_FILE), ...rawChunks(file, RAW_CHARS_PER_FILE, 1000 + i)];
        const mismatch = firstMismatch(sample, ours, reference);
        assert.equal(mismatch, undefined, `${path.basename(file)}: ${mismatch}`);
        texts += sample.length;
      }
      assert.ok(texts > 1000, `expected a real sample from ${TRANSCRIPTS_FOLDER}, got ${texts} texts`);
    });

    it('counts emoji, CJK, combining marks, lone surrogates, special-token text, whitespace runs and CRLF exactly', () => {
      assert.equal(firstMismatch(TRICKY_TEXTS, ours, reference), undefined);
    });

    it('counts fuzzed mixtures of every tricky kind exactly', () => {
      const random = seededRandom(encoding === 'o200k_base' ? 7 : 11);
      const texts = Array.from({ length: 1_500 }, () => fuzzText(random, 120));
      assert.equal(firstMismatch(texts, ours, reference), undefined);
    });

    it('counts the same text the same way from a cold and a warm piece cache', () => {
      const fresh = new BpeTokenCounter(rankData(encoding), { maxCachedPieces: 10 });
      const text = TRICKY_TEXTS.join(' ');
      assert.equal(fresh.count(text), ours.count(text));
      assert.equal(fresh.count(text), referenceCount(reference, text));
      assert.ok(fresh.cachedPieces <= 10, 'the piece cache stays within its bound');
    });

    it('counts 2,000-character unbroken runs exactly (long pieces take the heap merge)', () => {
      const runs = ['a'.repeat(2_000), randomLetters(2_000, 3), ' '.repeat(2_000), '1'.repeat(2_000), '中'.repeat(700), '😀'.repeat(500)];
      assert.equal(firstMismatch(runs, ours, reference), undefined);
    });

    it('finishes a 200,000-character run of one letter', () => {
      assert.ok(ours.count('a'.repeat(200_000)) > 0);
    });

    it('finishes a 200,000-character run of random letters', () => {
      assert.ok(ours.count(randomLetters(200_000, 5)) > 0);
    });
  });
}
