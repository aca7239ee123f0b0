import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { goRegexToJs } from '../../tools/goRegex';
import { RULES_PATH, vendoredRulesFromFixtures } from '../../tools/vendorGitleaks';

describe("gitleaks' rules, vendored", () => {
  it('are exactly what the vendoring writes from the vendored rule file (never edited by hand)', async () => {
    assert.equal(fs.readFileSync(RULES_PATH, 'utf8'), await vendoredRulesFromFixtures());
  });

  describe("Go's pattern syntax written as JavaScript's", () => {
    const cases: readonly (readonly [string, string, readonly string[], readonly string[]])[] = [
      ['a leading (?i) as case-free letters', '(?i)ab1', ['AB1', 'aB1'], ['ac1']],
      ['a scoped (?i:…) only inside it', 'x(?i:ab)y', ['xABy'], ['XABy']],
      ['(?-i:…) keeping its case inside (?i)', '(?i)a(?-i:B)', ['AB', 'aB'], ['ab']],
      ['a class under (?i) with both cases', '(?i)[a-c]+', ['AbC'], ['d']],
      ['\\z as the end of the text', 'a\\z', ['xa'], ['a\nb']],
      ['(?s) letting . match a newline', '(?s)a.b', ['a\nb'], []],
      ['. not matching a newline otherwise', 'a.b', ['axb'], ['a\nb']],
      ['a POSIX class', '[[:alnum:]]{3}', ['a1Z'], ['_-.']],
      ['a named group', '(?P<key>ab)', ['ab'], []],
    ];
    for (const [what, go, matches, misses] of cases) {
      it(`translates ${what}`, () => {
        const js = new RegExp(goRegexToJs(go));
        for (const m of matches) assert.ok(js.test(m), `${go} → ${js.source} should match ${JSON.stringify(m)}`);
        for (const m of misses) assert.ok(!js.test(m), `${go} → ${js.source} should not match ${JSON.stringify(m)}`);
      });
    }

    it('refuses what it does not know rather than mistranslate it', () => {
      assert.throws(() => goRegexToJs('\\p{Greek}'), /Unicode classes/);
      assert.throws(() => goRegexToJs('(?U)a+'), /U flag/);
    });
  });
});
