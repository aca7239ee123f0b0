import * as assert from 'node:assert/strict';
import { splitInjectedTags } from '../../../src/engine/text/injectedTags';

const TAGS = ['system-reminder', 'context'];

describe('splitting injected tags out of a user text', () => {
  it('makes each known tag an injected block and keeps the words around it, losing no character', () => {
    const text = 'fix the bug\n<system-reminder>\nfiles changed\n</system-reminder>\n\nthen run the tests\n';
    const blocks = splitInjectedTags(text, TAGS);
    assert.deepEqual(
      blocks.map((b) => [b.injected === true, b.text.trim()]),
      [
        [false, 'fix the bug'],
        [true, '<system-reminder>\nfiles changed\n</system-reminder>'],
        [false, 'then run the tests'],
      ],
    );
    assert.equal(blocks.map((b) => b.text).join(''), text);
    assert.equal(blocks[0].text, 'fix the bug');
  });

  it('reads tags with attributes, runs an unclosed tag to the end, and leaves unknown tags to the author', () => {
    const blocks = splitInjectedTags('<context id="1">a</context><note>mine</note> <system-reminder>rest', TAGS);
    assert.deepEqual(
      blocks.map((b) => [b.injected === true, b.text]),
      [
        [true, '<context id="1">a</context>'],
        [false, '<note>mine</note>'],
        [true, ' <system-reminder>rest'],
      ],
    );
  });

  it('keeps a text with no known tag as one authored block', () => {
    assert.deepEqual(splitInjectedTags('plain <b>words</b>', TAGS), [{ type: 'text', text: 'plain <b>words</b>' }]);
  });
});
