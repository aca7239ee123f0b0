import * as assert from 'node:assert/strict';
import { forEachWord } from '../../../src/engine/text/wordSpans';

const spans = (text: string): [number, number][] => {
  const found: [number, number][] = [];
  forEachWord(text, (start, end) => found.push([start, end]));
  return found;
};
const byRegExp = (text: string): [number, number][] => [...text.matchAll(/[\p{L}\p{N}_]+/gu)].map((m) => [m.index, m.index + m[0].length]);

describe('whole words of a text, by where they start and end', () => {
  it('finds the words a Unicode regular expression of letters, digits and underscores finds', () => {
    const texts = [
      '',
      '   ',
      'plain words here',
      'snake_case and CamelCase2 with 42 numbers_',
      '--flag=value/path/to/file.ts:12',
      'Straße, café, naïve — “quoted” élan',
      'Ошибка: файл не найден (код 2)',
      '错误：找不到文件 main.go',
      'math 𝑥𝑦 and 𐐀𐐁 deseret, emoji 🚀 apart',
      'lone \ud800 high and \udc00 low surrogates',
      'ends with a word',
      '_leading underscore_',
      'tab\tand\nnewline',
      'digits ١٢٣ arabic-indic',
    ];
    for (const text of texts) assert.deepEqual(spans(text), byRegExp(text), JSON.stringify(text));
  });

  it('gives each word once, in order', () => {
    assert.deepEqual(spans('a bb, ccc'), [
      [0, 1],
      [2, 4],
      [6, 9],
    ]);
  });
});
