import * as assert from 'node:assert/strict';
import { checkDrift, renderDriftWarning, renderReinsertion, type DriftItem } from '../../../src/engine/drift/driftCheck';
import { EMPTY_LEDGER, type Ledger } from '../../../src/engine/model/ledgerTypes';
import { sampleLedger } from '../support/ledgerBuilders';

const LEDGER = sampleLedger();
const INTENT = LEDGER.intent?.text ?? '';
const GOAL = LEDGER.goals[0].text;
const DECISION = LEDGER.decisions[0].text;
const NEXT = LEDGER.nextStep?.text ?? '';

/** A context that holds everything the sample ledger requires, spread over Markdown with odd spacing and case. */
const fullContext = (): string =>
  [
    '## Session Intent',
    INTENT.toUpperCase(),
    '### Goals',
    `- [ ] ${GOAL.replace(/ /g, '  ')}`,
    '### Decisions',
    `- ${DECISION.replace(' not ', '\n not ')}`,
    `**Next:** ${NEXT}`,
    'Edited src/workflows/invoice.ts; wrote docs/migration-plan.md.',
  ].join('\n');

const nothingFindable = () => false;
const check = (contextText: string, ledger: Ledger = LEDGER, isFindable: (p: string) => boolean = nothingFindable) =>
  checkDrift({ contextText, ledger, isFindable });

describe('drift check', () => {
  it('is ALIGNED with confidence 1 when every required item is present, ignoring case and whitespace', () => {
    const report = check(fullContext());
    assert.equal(report.status, 'ALIGNED');
    assert.equal(report.confidence, 1);
    assert.deepEqual(report.missing, []);
    assert.deepEqual(
      report.items.map((i) => [i.kind, i.text]),
      [
        ['intent', INTENT],
        ['goal', GOAL],
        ['decision', DECISION],
        ['next', NEXT],
        ['artifact', 'src/workflows/invoice.ts'],
        ['artifact', 'docs/migration-plan.md'],
      ],
      'completed goals, unlocked decisions and files only read are not required',
    );
  });

  it('is ALIGNED with confidence 1 when nothing is required', () => {
    const report = check('', EMPTY_LEDGER);
    assert.equal(report.status, 'ALIGNED');
    assert.equal(report.confidence, 1);
  });

  for (const [kind, label, text] of [
    ['intent', 'session intent', INTENT.toUpperCase()],
    ['goal', 'active goal', GOAL.replace(/ /g, '  ')],
    ['decision', 'locked decision', DECISION.replace(' not ', '\n not ')],
    ['next', 'next step', NEXT],
  ] as const) {
    it(`reports a removed ${label} as missing, with confidence below 1`, () => {
      const report = check(fullContext().replace(text, ''));
      assert.equal(report.status, 'DRIFT_DETECTED');
      assert.equal(report.missing.length, 1);
      assert.equal(report.missing[0].kind, kind);
      assert.ok(report.confidence < 1 && report.confidence > 0);
    });
  }

  it('weighs a lost intent or decision more than a lost artifact', () => {
    const noIntent = check(fullContext().replace(INTENT.toUpperCase(), ''));
    const noDecision = check(fullContext().replace(DECISION.replace(' not ', '\n not '), ''));
    const noArtifact = check(fullContext().replace('docs/migration-plan.md', ''));
    assert.equal(noArtifact.missing[0].kind, 'artifact');
    assert.ok(noIntent.confidence < noArtifact.confidence);
    assert.ok(noDecision.confidence < noArtifact.confidence);
  });

  it('does not count an artifact missing from the text as missing when it is findable', () => {
    const context = fullContext().replace('src/workflows/invoice.ts', '');
    assert.equal(check(context).missing[0].text, 'src/workflows/invoice.ts');
    const report = check(context, LEDGER, (p) => p === 'src/workflows/invoice.ts');
    assert.equal(report.status, 'ALIGNED');
    assert.equal(report.confidence, 1);
  });

  it('matches a long text by its head and tail', () => {
    const middle = 'filler words in the middle '.repeat(40);
    const longIntent = `Start: build the reconciliation report for finance. ${middle} End: ship it behind a feature flag.`;
    const ledger = sampleLedger({ intent: { text: longIntent, messageId: 'u1', at: 0 } });
    const shortened = fullContext().replace(INTENT.toUpperCase(), `${longIntent.slice(0, 150)} [… shortened …] ${longIntent.slice(-150)}`);
    assert.equal(check(shortened, ledger).status, 'ALIGNED');
    const headOnly = fullContext().replace(INTENT.toUpperCase(), longIntent.slice(0, 200));
    assert.equal(check(headOnly, ledger).missing[0].kind, 'intent');
  });

  it('renders the missing items verbatim so that checking again after appending them is ALIGNED', () => {
    const context = fullContext().replace(GOAL.replace(/ /g, '  '), '').replace(NEXT, '').replace('docs/migration-plan.md', '');
    const report = check(context);
    const section = renderReinsertion(report.missing);
    assert.ok(section.startsWith('### Restored after the drift check'));
    assert.ok(section.includes(`- ${GOAL}`));
    assert.ok(section.includes(`- ${NEXT}`));
    assert.ok(section.indexOf('**Active goals**') < section.indexOf('**Next step**'));
    assert.ok(section.indexOf('**Next step**') < section.indexOf('**Artifacts**'));
    assert.equal(check(`${context}\n\n${section}`).status, 'ALIGNED');
  });

  it('renders nothing when nothing is missing', () => {
    assert.equal(renderReinsertion([]), '');
    assert.equal(renderDriftWarning(check(fullContext()), INTENT), '');
  });

  it('warns in plain words, naming what was lost and the original intent', () => {
    const report = check(fullContext().replace(GOAL.replace(/ /g, '  '), '').replace(DECISION.replace(' not ', '\n not '), ''));
    const warning = renderDriftWarning(report, INTENT);
    assert.match(warning, /^⚠️ \*\*Goal Drift Warning\*\*/);
    assert.match(
      warning,
      /\*\*Detection:\*\* After compression, 2 of the 6 things this session depends on were missing from the context: 1 active goal and 1 locked decision\./,
    );
    assert.ok(warning.includes(`**Original Intent:** ${INTENT}`));
    assert.match(warning, /\*\*Recovery Action:\*\*\n.*word for word/);
    assert.match(warning, /\*\*Recommendation:\*\* .*locked decisions/);
  });

  it('recommends a fresh start when most of the session was lost', () => {
    const missing: DriftItem[] = check('').missing;
    const warning = renderDriftWarning(check(''), '');
    assert.equal(missing.length, 6);
    assert.match(warning, /the session intent, 1 active goal, 1 locked decision, the next step and 2 artifacts/);
    assert.match(warning, /\*\*Original Intent:\*\* \(not recorded\)/);
    assert.match(warning, /\/fresh/);
  });
});
