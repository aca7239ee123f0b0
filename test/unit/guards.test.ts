import * as assert from 'node:assert/strict';
import { isCheckpoint } from '../../src/engine/model/checkpointGuard';
import { isLedger } from '../../src/engine/model/ledgerGuard';
import { EMPTY_LEDGER } from '../../src/engine/model/ledgerTypes';
import { isBlock } from '../../src/engine/schema';
import { isOffloadRecord } from '../../src/engine/snapshots/snapshot';
import { injectedTextBlock } from '../../src/engine/types';
import { sampleCheckpoint, sampleLedger, sampleOffload } from './support/ledgerBuilders';

/** A deep copy through JSON, as a value read back from disk would be. */
const roundTrip = (v: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(v)) as Record<string, unknown>;

describe('guards', () => {
  describe('isBlock', () => {
    it('accepts a text block marked injected, read back from JSON, and rejects a flag that is not a boolean', () => {
      assert.ok(isBlock(roundTrip(injectedTextBlock('[file a.md]\ncontents'))));
      assert.ok(isBlock({ type: 'text', text: 'plain' }));
      assert.ok(!isBlock({ type: 'text', text: 'x', injected: 'yes' }));
    });
  });

  describe('isLedger', () => {
    it('accepts the empty ledger and a full one read back from JSON', () => {
      assert.ok(isLedger(EMPTY_LEDGER));
      assert.ok(isLedger(roundTrip(sampleLedger())));
    });

    it('accepts a ledger without its optional intent and next step', () => {
      const { intent: _i, nextStep: _n, ...rest } = sampleLedger();
      assert.ok(isLedger(rest));
    });

    it('rejects values that are not ledgers at all', () => {
      for (const v of [undefined, null, 'ledger', 42, [], {}]) assert.equal(isLedger(v), false, JSON.stringify(v));
    });

    const malformed: [string, (l: Record<string, unknown>) => void][] = [
      ['a missing goals list', (l) => delete l.goals],
      ['an intent without text', (l) => (l.intent = { messageId: 'u1', at: 1 })],
      ['a goal with an unknown status', (l) => ((l.goals as Record<string, unknown>[])[0].status = 'done')],
      ['a goal from a tool result', (l) => ((l.goals as Record<string, unknown>[])[0].source = 'tool')],
      ['a goal whose optional messageId is a number', (l) => ((l.goals as Record<string, unknown>[])[0].messageId = 7)],
      ['a decision whose locked flag is a string', (l) => ((l.decisions as Record<string, unknown>[])[0].locked = 'yes')],
      ['a progress mark with an unknown status', (l) => ((l.progress as Record<string, unknown>[])[0].status = 'doing')],
      ['a next step without a source', (l) => (l.nextStep = { text: 'x', at: 1 })],
      ['an artifact that is not a string', (l) => (l.artifacts = [1])],
      ['a user message without tokens', (l) => delete (l.userMessages as Record<string, unknown>[])[0].tokens],
      ['a user message whose preview is not a string', (l) => ((l.userMessages as Record<string, unknown>[])[1].preview = ['x'])],
      ['a missing tool record', (l) => delete l.tools],
      [
        'a file record with an unknown action',
        (l) => ((l.tools as Record<string, Record<string, unknown>[]>).files[0].actions = ['renamed']),
      ],
      ['a command whose exit code is a string', (l) => ((l.tools as Record<string, Record<string, unknown>[]>).commands[0].exitCode = '1')],
      ['an error record without its fixed flag', (l) => delete (l.tools as Record<string, Record<string, unknown>[]>).errors[0].fixed],
      ['an offloaded entry without a file', (l) => delete (l.tools as Record<string, Record<string, unknown>[]>).offloaded[0].file],
    ];
    for (const [what, breakIt] of malformed) {
      it(`rejects a ledger with ${what}`, () => {
        const ledger = roundTrip(sampleLedger());
        breakIt(ledger);
        assert.equal(isLedger(ledger), false);
      });
    }
  });

  describe('isCheckpoint', () => {
    it('accepts checkpoints of every age, with and without compressedAt', () => {
      for (const age of [0, 1, 2, 3] as const) assert.ok(isCheckpoint(roundTrip(sampleCheckpoint({ age }))));
      const { compressedAt: _c, ...fresh } = sampleCheckpoint({ age: 0 });
      assert.ok(isCheckpoint(fresh));
    });

    const malformed: [string, (c: Record<string, unknown>) => void][] = [
      ['an age above 3', (c) => (c.age = 4)],
      ['a negative age', (c) => (c.age = -1)],
      ['a fractional age', (c) => (c.age = 1.5)],
      ['an age given as a string', (c) => (c.age = '1')],
      ['a missing summary', (c) => delete c.summary],
      ['message ids that are not strings', (c) => (c.messageIds = [1, 2])],
      ['a compressedAt that is not a number', (c) => (c.compressedAt = 'yesterday')],
      ['a missing list of next steps', (c) => delete c.nextSteps],
      ['token counts that are not numbers', (c) => (c.currentTokens = null)],
    ];
    for (const [what, breakIt] of malformed) {
      it(`rejects a checkpoint with ${what}`, () => {
        const checkpoint = roundTrip(sampleCheckpoint());
        breakIt(checkpoint);
        assert.equal(isCheckpoint(checkpoint), false);
      });
    }
  });

  describe('isOffloadRecord', () => {
    it('accepts a complete record and rejects one missing a field', () => {
      assert.ok(isOffloadRecord(roundTrip(sampleOffload())));
      const broken = roundTrip(sampleOffload());
      delete broken.estimated;
      assert.equal(isOffloadRecord(broken), false);
    });
  });
});
