/** Builders for ledgers, checkpoints and snapshot content in tests: complete, realistic, stable. */
import type { Checkpoint } from '../../../src/engine/model/checkpoint';
import type { Ledger } from '../../../src/engine/model/ledgerTypes';
import type { SnapshotContent } from '../../../src/engine/snapshots/snapshot';
import type { OffloadRecord } from '../../../src/engine/model/offloadRecord';
import { message, textBlock, toolCallBlock, toolResultBlock } from '../../../src/engine/types';

const AT = Date.UTC(2026, 0, 21, 10, 0, 0);

/** A ledger with every list filled and every optional field set somewhere. */
export function sampleLedger(overrides: Partial<Ledger> = {}): Ledger {
  return {
    intent: { text: 'Migrate the billing service from cron jobs to Temporal workflows.', messageId: 'u1', at: AT },
    goals: [
      { id: 'g1', text: 'Port the nightly invoice job to a Temporal workflow', status: 'active', source: 'user', at: AT, messageId: 'u1' },
      { id: 'g2', text: 'Write the migration plan', status: 'completed', source: 'assistant', at: AT },
    ],
    decisions: [
      { id: 'd1', text: 'Use the TypeScript SDK, not Go', locked: true, source: 'user', at: AT, messageId: 'u2' },
      { id: 'd2', text: 'Maybe rename the queue later', locked: false, source: 'assistant', at: AT },
    ],
    progress: [{ text: 'Workflow skeleton compiles', status: 'completed', source: 'assistant', at: AT }],
    nextStep: { text: 'Add retries with exponential backoff to the invoice activity', source: 'assistant', at: AT },
    artifacts: ['docs/migration-plan.md'],
    userMessages: [
      { messageId: 'u1', at: AT, text: 'Migrate the billing service from cron jobs to Temporal workflows.', tokens: 14 },
      { messageId: 'u3', at: AT, file: 'sessions/s/user/u3.txt', preview: 'first lines', tokens: 40_000 },
    ],
    tools: {
      files: [
        { path: 'src/workflows/invoice.ts', actions: ['read', 'edited'], lastAt: AT, lastCallId: 'c2' },
        { path: 'src/legacy/cron.ts', actions: ['read'], lastAt: AT, lastCallId: 'c1' },
      ],
      commands: [
        { callId: 'c3', command: 'npm test', exitCode: 1, ok: false, at: AT },
        { callId: 'c4', command: 'npm test', ok: true, at: AT },
      ],
      errors: [{ callId: 'c3', toolName: 'run', summary: '2 tests failed', subject: 'npm test', at: AT, fixed: true, fixedByCallId: 'c4' }],
      offloaded: [{ callId: 'c5', toolName: 'fetch', file: 'offloaded/x.txt', tokens: 20_000 }],
    },
    ...overrides,
  };
}

export function sampleCheckpoint(overrides: Partial<Checkpoint> = {}): Checkpoint {
  return {
    id: 'cp1',
    age: 1,
    range: 'Messages 1–50',
    messageIds: ['u1', 'a1', 't1'],
    summary: '## Summary\nPorted the job.',
    summarizedBy: 'deterministic',
    createdAt: AT,
    compressedAt: AT + 1000,
    originalTokens: 12_000,
    currentTokens: 600,
    compressionCount: 2,
    compressionNumber: 1,
    keyDecisions: ['Use the TypeScript SDK'],
    filesModified: ['src/workflows/invoice.ts'],
    nextSteps: ['Add retries'],
    ...overrides,
  };
}

export function sampleOffload(overrides: Partial<OffloadRecord> = {}): OffloadRecord {
  return {
    callId: 'c5',
    toolName: 'fetch',
    file: 'offloaded/20260121-100000-000_fetch_c5.txt',
    tokens: 20_000,
    savedTokens: 19_500,
    kind: 'text',
    isError: false,
    at: AT,
    estimated: false,
    ...overrides,
  };
}

/** What the model sees in a small session: a ledger, one checkpoint, a watermark, messages, an offload. */
export function sampleContent(overrides: Partial<SnapshotContent> = {}): SnapshotContent {
  return {
    ledger: sampleLedger(),
    checkpoints: [sampleCheckpoint()],
    watermark: 'c4',
    active: [
      message('u9', 'user', [textBlock('Now add retries — with “smart quotes” and émojis 🎉')], AT),
      message('a9', 'assistant', [textBlock('Running the tests.'), toolCallBlock('c9', 'run', { command: 'npm test' })]),
      message('t9', 'tool', [toolResultBlock('c9', 'all 42 passing', false, 'run')]),
    ],
    offloads: [sampleOffload()],
    ...overrides,
  };
}
