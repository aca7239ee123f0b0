/**
 * The mask measured on a public secret-scanner corpus: gitleaks' test strings, the true and false positives each of
 * its rules is checked against (test/fixtures/gitleaks/cases.json, drawn from gitleaks' rule definitions by the
 * program in test/fixtures/gitleaks/extract). A false positive of one rule can be another rule's credential (a
 * Cloudflare key shown as the negative of another Cloudflare rule): the negatives that count as ordinary text are
 * those no rule of gitleaks reports.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { maskSecretsCounted } from '../../../src/engine/text/secrets';
import { providerSecretSpans } from '../../../src/engine/text/secretShapes';

interface RuleCases {
  readonly rule: string;
  readonly positives: readonly string[];
  readonly negatives: readonly string[];
}

const CASES = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, '../../../../test/fixtures/gitleaks/cases.json'), 'utf8'),
) as readonly RuleCases[];

/** Of its positive cases, the share the mask must hide. */
const MIN_POSITIVES_MASKED = 0.95;
/** Of its negative cases that no rule reports, the share the mask may touch. */
const MAX_NEGATIVES_MASKED = 0.01;

const share = (part: number, whole: number): string => `${part}/${whole} (${((100 * part) / whole).toFixed(2)}%)`;

describe("the secret mask on gitleaks' test corpus", function () {
  // Seven thousand strings through every rule: seconds, not milliseconds.
  this.timeout(60_000);
  const positives = CASES.flatMap((c) => c.positives);
  const negatives = CASES.flatMap((c) => c.negatives);
  const ordinary = negatives.filter((n) => providerSecretSpans(n).length === 0);
  const masked = (texts: readonly string[]): number => texts.filter((t) => maskSecretsCounted(t).masked > 0).length;
  const figures: string[] = [];
  after(() => console.log(`      figures: ${figures.join('; ')}`));

  it(`masks at least ${MIN_POSITIVES_MASKED * 100}% of its positive cases`, () => {
    const hit = masked(positives);
    figures.push(`positives masked ${share(hit, positives.length)}`);
    assert.ok(positives.length > 5_000 && CASES.length > 200, 'the whole corpus is read');
    assert.ok(hit / positives.length >= MIN_POSITIVES_MASKED, share(hit, positives.length));
  });

  it(`masks at most ${MAX_NEGATIVES_MASKED * 100}% of its negative cases that no rule reports`, () => {
    const hit = masked(ordinary);
    figures.push(`negatives masked ${share(hit, ordinary.length)} (all negatives: ${share(masked(negatives), negatives.length)})`);
    assert.ok(ordinary.length > 300, 'the negatives are read');
    assert.ok(hit / ordinary.length <= MAX_NEGATIVES_MASKED, share(hit, ordinary.length));
  });
});
