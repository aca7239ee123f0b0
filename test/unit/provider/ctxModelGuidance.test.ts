import * as assert from 'node:assert/strict';
import { MODEL_GUIDANCE_TEXT, shouldShowModelGuidance } from '../../../src/vscode/provider/ctxModelGuidance';

describe("the first-run guidance for ctx's models", () => {
  it('is shown once, beside Copilot, while the ctx models are on', () => {
    assert.equal(shouldShowModelGuidance({ copilotPresent: true, modelsEnabled: true, alreadyShown: false }), true);
    assert.equal(shouldShowModelGuidance({ copilotPresent: true, modelsEnabled: true, alreadyShown: true }), false, 'only once');
    assert.equal(
      shouldShowModelGuidance({ copilotPresent: false, modelsEnabled: true, alreadyShown: false }),
      false,
      'no Copilot, no picker',
    );
    assert.equal(shouldShowModelGuidance({ copilotPresent: true, modelsEnabled: false, alreadyShown: false }), false, 'models turned off');
  });

  it('says where the models are in the picker and which chats they serve', () => {
    assert.match(MODEL_GUIDANCE_TEXT, /"Other Models"/);
    assert.match(MODEL_GUIDANCE_TEXT, /\(ctx\)/);
    assert.match(MODEL_GUIDANCE_TEXT, /Local harness/);
    assert.match(MODEL_GUIDANCE_TEXT, /Copilot, Claude or Codex harness/);
  });
});
