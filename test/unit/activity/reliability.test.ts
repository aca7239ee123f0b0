import * as assert from 'node:assert/strict';
import {
  compressionPenalty,
  contextConfidenceOf,
  modelFactorFor,
  RECALL_WEIGHT,
  reliabilityFor,
  reliabilityLevel,
  renderReliabilityLine,
} from '../../../src/engine/activity/reliability';

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} ≠ ${expected}`);

describe('reliability', () => {
  it("uses the design's size thresholds when the model name states its parameter count", () => {
    const cases: [string, number][] = [
      ['llama3.1:70b', 0.95],
      ['Llama-3.1-405B-Instruct', 0.95],
      ['gpt-oss-120b', 0.95],
      ['qwen2.5-coder:32b', 0.85],
      ['mixtral-8x7b', 0.85],
      ['gemma-3-27b-it', 0.7],
      ['gemma2:13b', 0.7],
      ['llama3.1:8b', 0.5],
      ['mistral:7b', 0.5],
      ['llama3.2:3b', 0.3],
      ['deepseek-r1:1.5b', 0.3],
      ['qwen3-30b-a3b', 0.85],
    ];
    for (const [model, factor] of cases) assert.equal(modelFactorFor(model), factor, model);
  });

  it('places hosted models by family: frontier 0.95, small and fast 0.85, unknown 0.85', () => {
    const cases: [string | undefined, number][] = [
      ['gpt-4o', 0.95],
      ['GPT-4.1', 0.95],
      ['gpt-5', 0.95],
      ['o1', 0.95],
      ['o3', 0.95],
      ['claude-3-5-sonnet-20241022', 0.95],
      ['claude-3.7-sonnet', 0.95],
      ['Claude Sonnet 4', 0.95],
      ['claude-opus-4-1-20250805', 0.95],
      ['Gemini 2.5 Pro', 0.95],
      ['gpt-4o-mini', 0.85],
      ['gpt-4.1-nano', 0.85],
      ['o4-mini', 0.85],
      ['claude-3-5-haiku', 0.85],
      ['gemini-2.0-flash-lite', 0.85],
      ['claude-3-opus', 0.85],
      ['some-new-model', 0.85],
      [undefined, 0.85],
    ];
    for (const [model, factor] of cases) assert.equal(modelFactorFor(model), factor, String(model));
  });

  it('takes 15% per compression off, down to a floor of 30%', () => {
    close(compressionPenalty(0), 1);
    close(compressionPenalty(1), 0.85);
    close(compressionPenalty(3), 0.55);
    close(compressionPenalty(4), 0.4);
    close(compressionPenalty(5), 0.3);
    close(compressionPenalty(20), 0.3);
  });

  it('multiplies model factor, compression penalty and context confidence', () => {
    close(reliabilityFor({ model: 'gpt-4o', checkpointsMade: 0, contextConfidence: 1 }).score, 0.95);
    close(reliabilityFor({ model: 'gpt-4o', checkpointsMade: 3, contextConfidence: 1 }).score, 0.95 * 0.55);
    close(reliabilityFor({ model: 'llama3.1:8b', checkpointsMade: 10, contextConfidence: 0.5 }).score, 0.5 * 0.3 * 0.5);
    const r = reliabilityFor({ model: 'gpt-4o', checkpointsMade: 2, contextConfidence: 0.8 });
    assert.deepEqual(
      { ...r, score: Math.round(r.score * 1000) },
      { score: 532, level: 'Low', modelFactor: 0.95, compressionPenalty: 0.7, contextConfidence: 0.8 },
    );
  });

  it('puts the level boundaries at 85, 60 and 40 percent', () => {
    assert.equal(reliabilityLevel(1), 'High');
    assert.equal(reliabilityLevel(0.85), 'High');
    assert.equal(reliabilityLevel(0.849), 'High', 'judged on the percent shown: 85%');
    assert.equal(reliabilityLevel(0.84), 'Medium');
    assert.equal(reliabilityLevel(0.6), 'Medium');
    assert.equal(reliabilityLevel(0.59), 'Low');
    assert.equal(reliabilityLevel(0.4), 'Low');
    assert.equal(reliabilityLevel(0.39), 'Critical');
    assert.equal(reliabilityLevel(0), 'Critical');
  });

  it('warns only below 40%, with advice pointing to /fresh', () => {
    assert.equal(reliabilityFor({ model: 'gpt-4o', checkpointsMade: 3, contextConfidence: 1 }).warning, undefined);
    const r = reliabilityFor({ model: 'llama3.2:3b', checkpointsMade: 3, contextConfidence: 1 });
    assert.equal(r.level, 'Critical');
    const warning = r.warning ?? '';
    assert.match(warning, /^⚠️ Context Compression Warning — Your model \(llama3\.2:3b\) has compressed the conversation 3 times\./);
    assert.match(warning, /Continue if you are making good progress/);
    assert.match(warning, /Start a fresh session from the latest checkpoint with \/fresh if you see hallucinations or forgotten rules/);
    assert.match(warning, /Use a larger model for complex long-term tasks/);
  });

  it('mentions lost context in the warning when the drift check found items missing', () => {
    const r = reliabilityFor({ model: 'gpt-4o', checkpointsMade: 1, contextConfidence: 0.4 });
    assert.equal(r.level, 'Critical');
    assert.match(r.warning ?? '', /compressed the conversation once\./);
    assert.match(r.warning ?? '', /missing from the context/);
  });

  it('renders the status line with a traffic light, the score and the compressions', () => {
    const r = reliabilityFor({ model: 'gpt-4o', checkpointsMade: 2, contextConfidence: 0.98 });
    assert.equal(renderReliabilityLine(r, 5_234, 13_600, 2), 'Context 5,234/13,600 · Reliability 🟡 65% (2 compressions)');
    const fresh = reliabilityFor({ model: 'gpt-4o', checkpointsMade: 0, contextConfidence: 1 });
    assert.equal(renderReliabilityLine(fresh, 100, 128_000, 0), 'Context 100/128,000 · Reliability 🟢 95% (no compressions)');
    const critical = reliabilityFor({ model: 'mistral:7b', checkpointsMade: 1, contextConfidence: 0.5 });
    assert.match(renderReliabilityLine(critical, 1, 2, 1), /🔴 21% \(1 compression\)$/);
  });

  it('lowers the context confidence by the recall checks, less than by the drift check', () => {
    close(contextConfidenceOf(1, 1), 1);
    close(contextConfidenceOf(1, 0), 1 - RECALL_WEIGHT);
    close(contextConfidenceOf(0.8, 0.5), 0.8 * (1 - RECALL_WEIGHT * 0.5));
    const withRecall = reliabilityFor({ model: 'gpt-4o', checkpointsMade: 1, contextConfidence: 0.9, recallConfidence: 0.6 });
    close(withRecall.contextConfidence, 0.9 * (1 - RECALL_WEIGHT * 0.4));
    close(withRecall.score, 0.95 * 0.85 * withRecall.contextConfidence);
    assert.equal(withRecall.driftConfidence, 0.9);
    assert.equal(withRecall.recallConfidence, 0.6);
  });

  it('keeps the drift confidence alone when no recall check ran', () => {
    const r = reliabilityFor({ model: 'gpt-4o', checkpointsMade: 1, contextConfidence: 0.9 });
    close(r.contextConfidence, 0.9);
    assert.equal(r.recallConfidence, undefined);
  });
});
