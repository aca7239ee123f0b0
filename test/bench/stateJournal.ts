/**
 * Saving a growing session state: the state journal (one line of changes per save, a new base
 * when the journal outgrows it) against rewriting the whole state on every save (what a plain
 * atomic write does). Both write through FileStore to a real folder, synced. The goal: bytes
 * written grow linearly with the session, so all the bytes of all the saves stay within a small
 * multiple of the final state's size (rewriting writes about half the number of saves times it).
 * Run alone with `node out/test/bench/stateJournal.js [--quick]`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { emptyState, readSessionStateValue, type SessionState } from '../../src/engine/model/sessionState';
import { FileStore } from '../../src/engine/storage/fileStore';
import { StateJournal } from '../../src/engine/storage/stateJournal';
import { message, textBlock, toolCallBlock, toolResultBlock } from '../../src/engine/types';
import type { BenchRow } from './benchRow';
import { timedAsync } from './replayFixtures';
import { runAlone } from './runAlone';

const GROUP = 'state journal';
/** All saves together may write at most this many times the final state's bytes. */
const LINEAR_GOAL = 4;

/** The state after one more request: a tool call and its result join the context, an event the history. */
function grow(state: SessionState, i: number): SessionState {
  const call = message(`a${i}`, 'assistant', [
    textBlock(`Step ${i}: reading the next file.`),
    toolCallBlock(`c${i}`, 'read_file', { path: `src/module${i}.ts` }),
  ]);
  const result = message(`t${i}`, 'tool', [toolResultBlock(`c${i}`, `export const value${i} = ${i};\n`.repeat(12), false, 'read_file')]);
  return {
    ...state,
    updatedAt: state.updatedAt + 1000,
    active: [...state.active, call, result],
    archivedCount: state.archivedCount + 2,
    history: [...state.history, { at: state.updatedAt, kind: 'offload', savedTokens: i, detail: `event ${i}` }],
  };
}

interface SaveRun {
  readonly bytes: number;
  readonly ms: number;
  /** Bytes of the final state as JSON. */
  readonly finalBytes: number;
}

async function runSaves(saves: number, journaled: boolean): Promise<SaveRun> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctx-bench-journal-'));
  try {
    const store = new FileStore(root);
    const paths = { base: 's/state.json', journal: 's/state.journal.jsonl' };
    const journal = StateJournal.create({ store, paths, read: (v) => readSessionStateValue(v) });
    let state = emptyState('s-20260101-000000-bench', Date.UTC(2026, 0, 1));
    let rewritten = 0;
    const { ms } = await timedAsync(async () => {
      for (let i = 1; i <= saves; i++) {
        state = grow(state, i);
        if (journaled) {
          await journal.save(state);
        } else {
          const text = JSON.stringify(state);
          await store.write(paths.base, text);
          rewritten += Buffer.byteLength(text);
        }
      }
    });
    return { bytes: journaled ? journal.figures.bytesWritten : rewritten, ms, finalBytes: Buffer.byteLength(JSON.stringify(state)) };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function benchStateJournal(quick: boolean): Promise<BenchRow[]> {
  const saves = quick ? 200 : 1000;
  const half = saves / 2;
  const journalHalf = await runSaves(half, true);
  const journal = await runSaves(saves, true);
  const rewrite = await runSaves(saves, false);
  const perState = journal.bytes / journal.finalBytes;
  const rewritePerState = rewrite.bytes / rewrite.finalBytes;
  const n = saves.toLocaleString('en-US');
  const note = `${n} saves of a state growing by one request each (final state ${(journal.finalBytes / 1024).toFixed(0)} KiB), FileStore, synced`;
  return [
    {
      group: GROUP,
      name: `bytes written, ${n} saves`,
      value: journal.bytes / 1024,
      unit: 'KiB',
      baseline: rewrite.bytes / 1024,
      ratio: rewrite.bytes / journal.bytes,
      note: `${note}; baseline rewrites the whole state on every save`,
    },
    {
      group: GROUP,
      name: `time, ${n} saves`,
      value: journal.ms,
      unit: 'ms',
      baseline: rewrite.ms,
      ratio: rewrite.ms / journal.ms,
      note: 'the same saves; baseline rewrites the whole state',
    },
    {
      group: GROUP,
      name: 'bytes written ÷ final state size',
      value: perState,
      unit: '×',
      baseline: rewritePerState,
      goal: `≤ ${LINEAR_GOAL} (linear in the session)`,
      met: perState <= LINEAR_GOAL,
      note:
        `${half} saves wrote ${(journalHalf.bytes / 1024).toFixed(0)} KiB, ${n} saves ${(journal.bytes / 1024).toFixed(0)} KiB; ` +
        `rewriting grows with the square of the session`,
    },
  ];
}

runAlone(module, benchStateJournal);
