import * as assert from 'node:assert/strict';
import { availableBudget, budgetFor, DEFAULT_BUDGET_CEILING_TOKENS, MIN_BUDGET_TOKENS } from '../../src/engine/budget';
import { DEFAULT_THRESHOLDS, levelFor, validateThresholds } from '../../src/engine/levels';

describe('levels', () => {
  it('puts each boundary in the higher level', () => {
    assert.equal(levelFor(0), 'GREEN');
    assert.equal(levelFor(0.2499), 'GREEN');
    assert.equal(levelFor(0.25), 'YELLOW');
    assert.equal(levelFor(0.4999), 'YELLOW');
    assert.equal(levelFor(0.5), 'ORANGE');
    assert.equal(levelFor(0.7499), 'ORANGE');
    assert.equal(levelFor(0.75), 'RED');
    assert.equal(levelFor(0.8499), 'RED');
    assert.equal(levelFor(0.85), 'CRITICAL');
    assert.equal(levelFor(1.7), 'CRITICAL');
  });

  it('uses configured thresholds', () => {
    const t = { yellowAt: 0.1, orangeAt: 0.2, redAt: 0.3, criticalAt: 0.4 };
    assert.equal(levelFor(0.15, t), 'YELLOW');
    assert.equal(levelFor(0.35, t), 'RED');
  });

  it('replaces thresholds that do not rise with the defaults and says why', () => {
    const checked = validateThresholds({ yellowAt: 0.5, orangeAt: 0.4, redAt: 0.75, criticalAt: 0.85 });
    assert.deepEqual(checked.thresholds, DEFAULT_THRESHOLDS);
    assert.match(checked.problem ?? '', /must rise/);
    assert.equal(validateThresholds(DEFAULT_THRESHOLDS).problem, undefined);
  });
});

describe('budget', () => {
  it('is the maximum input tokens minus the answer reserve', () => {
    assert.equal(budgetFor({ maxInputTokens: 128_000, answerReserveTokens: 4096 }), 123_904);
  });

  it('lets an override replace the model figure', () => {
    assert.equal(budgetFor({ maxInputTokens: 128_000, answerReserveTokens: 1000, maxInputTokensOverride: 20_000 }), 19_000);
  });

  it('never lets the reserve take more than half of a small window, nor the budget fall below the floor', () => {
    assert.equal(budgetFor({ maxInputTokens: 6000, answerReserveTokens: 10_000 }), 3000);
    assert.equal(budgetFor({ maxInputTokens: 100, answerReserveTokens: 0 }), MIN_BUDGET_TOKENS);
  });

  it('stops at the ceiling in a window larger than it, and leaves smaller windows and a ceiling of 0 alone', () => {
    assert.equal(
      budgetFor({ maxInputTokens: 1_000_000, answerReserveTokens: 4096, ceilingTokens: DEFAULT_BUDGET_CEILING_TOKENS }),
      200_000,
    );
    assert.equal(budgetFor({ maxInputTokens: 128_000, answerReserveTokens: 4096, ceilingTokens: DEFAULT_BUDGET_CEILING_TOKENS }), 123_904);
    assert.equal(budgetFor({ maxInputTokens: 1_000_000, answerReserveTokens: 4096, ceilingTokens: 0 }), 995_904);
    assert.equal(budgetFor({ maxInputTokens: 1_000_000, maxInputTokensOverride: 300_000, ceilingTokens: 250_000 }), 250_000);
  });

  it('leaves the available budget after the system prompt and checkpoints', () => {
    assert.equal(availableBudget(13_600, 1000, 1200), 11_400);
    assert.equal(availableBudget(1000, 800, 900), 0);
  });
});
