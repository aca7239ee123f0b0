import * as assert from 'node:assert/strict';
import { AnswerActivity } from '../../../src/engine/activity/answerActivity';
import { compressionRecord } from '../../../src/engine/activity/lastCompression';
import { DEFAULT_OPTIONS } from '../../../src/engine/options';
import { renderStatusReport } from '../../../src/engine/activity/statusReport';
import { contextStatus } from '../../../src/engine/activity/contextStatus';
import { sessionRig } from '../support/session';

describe('the status report on recent work', () => {
  it("shows the last answer's highest level with where ctx brought it, and the last compression with its time", () => {
    const { session, clock } = sessionRig();
    const answer = new AnswerActivity();
    answer.addPreparation({
      needed: {
        before: { usage: 0.88, level: 'CRITICAL', tokens: 8_800 },
        after: { usage: 0.61, level: 'ORANGE', tokens: 6_100 },
        earlier: { tokens: 0, usage: 0 },
      },
      events: [],
    });
    const at = Date.UTC(2026, 0, 21, 14, 2, 11);
    const last = compressionRecord([{ at, kind: 'watermark', savedTokens: 2_700, detail: 'Dropped 4 tool blocks' }]);
    const report = renderStatusReport(
      contextStatus({
        state: session.state,
        tokens: 6_100,
        budget: 10_000,
        estimated: false,
        thresholds: DEFAULT_OPTIONS.thresholds,
        warnings: [],
        now: clock.now(),
        lastAnswerPeak: answer.peak,
        lastCompression: last,
      }),
    );
    assert.match(report, /\*\*Highest level in the last answer:\*\* reached 88% \(CRITICAL\), compressed to 61% \(ORANGE\)\n/);
    assert.match(report, /\*\*Last compression:\*\* 14:02:11 UTC · 1 watermark applied · 2,700 tokens saved\n/);
    assert.doesNotMatch(report, /Restricted Mode/);
  });

  it('gives the usage as counted, and names the earlier lines within it', () => {
    const { session, clock } = sessionRig();
    const status = (earlierTokens?: number) =>
      renderStatusReport(
        contextStatus({
          state: session.state,
          tokens: 6_600,
          budget: 10_000,
          estimated: false,
          thresholds: DEFAULT_OPTIONS.thresholds,
          warnings: [],
          now: clock.now(),
          ...(earlierTokens ? { earlierTokens } : {}),
        }),
      );
    assert.match(status(), /\*\*Usage:\*\* 66\.0% \(6,600 \/ 10,000 tokens\)\n/);
    assert.match(
      status(4_600),
      /\*\*Usage:\*\* 66\.0% \(6,600 \/ 10,000 tokens: 4,600 of them earlier lines, word for word, chosen at the last compression\)\n/,
    );
    assert.doesNotMatch(status(4_600), /Estimated/);
  });

  it('names what is off in Restricted Mode', () => {
    const { session, clock } = sessionRig();
    const report = renderStatusReport(
      contextStatus({
        state: session.state,
        tokens: 0,
        budget: 10_000,
        estimated: false,
        thresholds: DEFAULT_OPTIONS.thresholds,
        warnings: [],
        now: clock.now(),
        restrictedMode: ['Instruction files are not read.', 'Only ctx tools are offered.'],
      }),
    );
    assert.match(report, /### Restricted Mode\n- Instruction files are not read\.\n- Only ctx tools are offered\.\n\nTrust the workspace/);
  });
});
