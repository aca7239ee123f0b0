/** A conversation router over in-memory ports, with a session source that keeps sessions open like the host does. */
import { ConversationRouter, type SessionSource } from '../../../src/engine/conversation/conversationRouter';
import { DEFAULT_OPTIONS, type EngineOptions } from '../../../src/engine/options';
import { ContextSession, type SessionDeps } from '../../../src/engine/session/contextSession';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import { CharTokenizer, FakeClock, FakeFiles, RecordingLogger } from './fakes';

export interface RouterRig {
  readonly router: ConversationRouter;
  readonly sessions: SessionSource & { readonly open: (id: string) => Promise<ContextSession | undefined>; readonly created: number };
  readonly store: MemoryStore;
  readonly clock: FakeClock;
  readonly logger: RecordingLogger;
  readonly deps: SessionDeps;
  readonly options: EngineOptions;
}

let sessionNumber = 0;

/** A rig; pass the store (and clock) of another rig to see what a reload finds. */
export function routerRig(options: Partial<EngineOptions> = {}, store = new MemoryStore(), clock = new FakeClock()): RouterRig {
  const logger = new RecordingLogger();
  const deps: SessionDeps = { store, counter: new TokenCounter(new CharTokenizer()), files: new FakeFiles(), logger, clock };
  const all: EngineOptions = { ...DEFAULT_OPTIONS, ...options };
  const open = new Map<string, ContextSession>();
  let created = 0;
  const sessions = {
    create: async () => {
      created++;
      const session = ContextSession.create(all, deps, `s-20260121-103522-r${(++sessionNumber).toString(36)}`);
      open.set(session.id, session);
      return session;
    },
    open: async (id: string) => {
      const known = open.get(id) ?? (await ContextSession.open(id, all, deps));
      if (known) open.set(id, known);
      return known;
    },
    get created() {
      return created;
    },
  };
  const router = new ConversationRouter({ store, clock, logger });
  return { router, sessions, store, clock, logger, deps, options: all };
}
