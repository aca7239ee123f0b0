import * as assert from 'node:assert/strict';
import { splitSentences } from '../../../src/engine/text/prose';

describe('sentences of a line', () => {
  it('splits after a full stop followed by a capital, a digit or a code span', () => {
    assert.deepEqual(splitSentences('The build failed. Retrying with the cache off. `npm ci` is next.'), [
      'The build failed.',
      'Retrying with the cache off.',
      '`npm ci` is next.',
    ]);
  });

  it('splits sentences a model glued together', () => {
    assert.deepEqual(splitSentences('I read the input.Now, I will parse it.'), ['I read the input.', 'Now, I will parse it.']);
  });

  it('keeps a dotted name whole: in a code span, or outside one when it goes on in capitals', () => {
    assert.deepEqual(splitSentences('I need to add `logging.WithAgent` calls where the agent is available.'), [
      'I need to add `logging.WithAgent` calls where the agent is available.',
    ]);
    assert.deepEqual(splitSentences('Call filepath.WalkDir first, then config.LoadFile when it exists.'), [
      'Call filepath.WalkDir first, then config.LoadFile when it exists.',
    ]);
    assert.deepEqual(splitSentences('Use `a. B` here. Then stop.'), ['Use `a. B` here.', 'Then stop.']);
  });

  it('reads a list number in emphasis as the start of its item, not a sentence of its own', () => {
    assert.deepEqual(splitSentences('**1. Missing Rows** - The import dropped rows. Then it stopped.'), [
      '**1. Missing Rows** - The import dropped rows.',
      'Then it stopped.',
    ]);
  });
});
