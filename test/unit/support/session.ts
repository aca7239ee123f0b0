/** A ContextSession wired to in-memory ports, for tests. */
import { DEFAULT_OPTIONS, type EngineOptions } from '../../../src/engine/options';
import type { Store } from '../../../src/engine/ports';
import { ContextSession, type SessionDeps } from '../../../src/engine/session/contextSession';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import { CharTokenizer, FakeClock, FakeFiles, RecordingLogger } from './fakes';
import { EARLIER_LINES_HEADING } from '../../../src/engine/checkpoints/earlierLines';
import { message, textBlock, type Message } from '../../../src/engine/types';
import { assistant, call, result } from './builders';

export interface SessionRig {
  readonly session: ContextSession;
  readonly store: Store;
  readonly files: FakeFiles;
  readonly clock: FakeClock;
  readonly logger: RecordingLogger;
  readonly tokenizer: CharTokenizer;
}

export function sessionRig(options: Partial<EngineOptions> = {}, store: Store = new MemoryStore()): SessionRig {
  const tokenizer = new CharTokenizer();
  const files = new FakeFiles();
  const clock = new FakeClock();
  const logger = new RecordingLogger();
  const session = ContextSession.create(
    { ...DEFAULT_OPTIONS, ...options },
    { store, counter: new TokenCounter(tokenizer), files, logger, clock },
    's-20260121-103522-test',
  );
  return { session, store, files, clock, logger, tokenizer };
}

/** Fresh fake ports around `store`, for a test that opens and reopens sessions on one storage. */
export function fakeSessionDeps(store: Store): SessionDeps {
  return {
    store,
    counter: new TokenCounter(new CharTokenizer()),
    files: new FakeFiles(),
    logger: new RecordingLogger(),
    clock: new FakeClock(),
  };
}

/** A memory store whose `offloaded/` folders are on a full disk: writing a file there fails with ENOSPC. */
export function storeWithFullOffloadedFolder(): MemoryStore {
  const store = new MemoryStore();
  const createExclusive = store.createExclusive.bind(store);
  store.createExclusive = async (path, text) => {
    if (path.includes('/offloaded/')) throw new Error('ENOSPC: no space left on device');
    return createExclusive(path, text);
  };
  return store;
}

/**
 * `rounds` rounds of benchmark runs, each prepared in `budget` as it arrives: a user's ask, a run whose output ends
 * in a verdict line, and a sentence of the agent's. What the earlier lines of a rebase are made of.
 */
export async function addBenchmarkRounds(rig: SessionRig, rounds: number, budget: number): Promise<void> {
  for (let step = 0; step < rounds; step++) {
    const samples = Array.from(
      { length: 30 },
      (_, i) => `stage${step} sample ${i}: ${(i * 37 + step * 11) % 997} tokens per ms on shard ${i % 7}`,
    );
    await rig.session.add([
      message(`q${step}`, 'user', [textBlock(`Check the tokenizer stage ${step}.`)]),
      call(`c${step}`, 'shell', { command: `./bench --stage ${step}` }),
      result(`c${step}`, [...samples, `stage ${step} verdict: ${1000 + step * 17} tokens per second`].join('\n')),
      assistant(`Stage ${step} keeps its buffer at ${64 * (step + 1)} bytes and flushes on every newline.`),
    ]);
    await rig.session.prepare(budget);
  }
}

/** True when a request's context message shows the earlier lines. */
export function showsEarlierLines(prepared: { readonly messages: readonly Message[] }): boolean {
  return prepared.messages[0].blocks.some((b) => b.type === 'text' && b.text.includes(EARLIER_LINES_HEADING));
}
