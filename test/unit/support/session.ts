/** A ContextSession wired to in-memory ports, for tests. */
import { DEFAULT_OPTIONS, type EngineOptions } from '../../../src/engine/options';
import type { Store } from '../../../src/engine/ports';
import { ContextSession, type SessionDeps } from '../../../src/engine/session/contextSession';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import { CharTokenizer, FakeClock, FakeFiles, RecordingLogger } from './fakes';

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
