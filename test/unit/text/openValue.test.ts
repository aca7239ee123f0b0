import * as assert from 'node:assert/strict';
import { closedCut, openValueStart, valueHead } from '../../../src/engine/text/openValue';

describe('a cut text never ends inside a value it opened', () => {
  it('finds where the outermost bracket or string left open starts', () => {
    assert.equal(openValueStart('retries = compute(3)'), undefined);
    assert.equal(openValueStart('"Stop": [ { "hooks": ['), 8);
    assert.equal(openValueStart('label: "unfinished'), 7);
    assert.equal(openValueStart("it's fine (really)"), undefined, 'an apostrophe opens no string');
  });

  it('cuts back to before the open value, keeping the ellipsis', () => {
    assert.equal(
      closedCut('func filterEnv(env []string, exclude string) []string { var out []string; if !strings.HasP…'),
      'func filterEnv(env []string, exclude string) []string…',
    );
    assert.equal(closedCut('Now in hooks.json: "Stop": [ { "matcher": "Bash", "hooks": [ { "type": "comm…'), 'Now in hooks.json: "Stop":…');
  });

  it('leaves a cut that closed everything, an uncut text, and a text that is all open value as they are', () => {
    assert.equal(
      closedCut('the build passes on every platform and the cache is warm…'),
      'the build passes on every platform and the cache is warm…',
    );
    assert.equal(closedCut('call(a, b'), 'call(a, b');
    assert.equal(closedCut('[1, 2, 3, 4…'), '[1, 2, 3, 4…');
  });

  it('reads what a value that ends by closing a bracket says before that bracket opens', () => {
    assert.equal(valueHead('func f(a int) []string { return nil }'), 'func f(a int) []string');
    assert.equal(valueHead('"Stop": [ { "hooks": [] } ]'), '"Stop":');
    assert.equal(valueHead('retries = 3'), undefined, 'no closing bracket at the end');
    assert.equal(valueHead('[1, 2, 3]'), undefined, 'the bracket opens at the start');
    assert.equal(valueHead('a) b'), undefined);
  });
});
