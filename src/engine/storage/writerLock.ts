/**
 * One writer at a time: a lock file naming its owner (process, host, times). A second writer is
 * refused with `WriterLockedError`, which the host turns into a plain message (and a read-only
 * view). A lock whose owner is gone (its process ended on this host, or its heartbeat is old) is
 * taken over. The owner refreshes its heartbeat while it works and removes the lock when done.
 */
import { randomBytes } from 'node:crypto';
import { systemClock, type Clock, type Store } from '../ports';
import { isRecord } from '../schema';
import { localProcessProbe, type ProcessProbe } from './processProbe';
import { isLinkFailure } from './storageError';

/** What the lock file says. */
export interface LockOwner {
  readonly schema: number;
  readonly pid: number;
  readonly host: string;
  /** What holds it, in words: "VS Code window", "ctx replay". */
  readonly purpose: string;
  readonly acquiredAt: number;
  readonly heartbeatAt: number;
  /** Tells this owner's lock from a later one of the same process. */
  readonly token: string;
}

const LOCK_SCHEMA = 1;
/** A heartbeat older than this means the owner hung or its host is gone: ten missed heartbeats. */
export const DEFAULT_STALE_AFTER_MS = 5 * 60_000;
/** How often an owner refreshes its heartbeat. */
export const DEFAULT_HEARTBEAT_MS = 30_000;
/** Rounds of "take over a stale lock, then create ours" before giving up to a faster process. */
const ACQUIRE_ATTEMPTS = 5;

export interface WriterLockOptions {
  readonly store: Store;
  /** The lock file, e.g. `sessions/<id>/writer.lock`. */
  readonly path: string;
  readonly purpose: string;
  /** @default localProcessProbe() */
  readonly probe?: ProcessProbe;
  /** @default systemClock */
  readonly clock?: Clock;
  /** @default DEFAULT_STALE_AFTER_MS */
  readonly staleAfterMs?: number;
}

/** Another live writer holds the lock. */
export class WriterLockedError extends Error {
  constructor(
    readonly path: string,
    readonly owner: LockOwner,
  ) {
    super(
      `${owner.purpose} (process ${owner.pid} on ${owner.host}, since ${new Date(owner.acquiredAt).toISOString()}) is writing here; ` +
        'only one writer at a time is allowed.',
    );
    this.name = 'WriterLockedError';
  }
}

/** A held lock. */
export class WriterLock {
  private released = false;

  private constructor(
    private readonly options: WriterLockOptions,
    private owner: LockOwner,
  ) {}

  /** Takes the lock, taking over a stale one; throws `WriterLockedError` when a live writer has it. */
  static async acquire(options: WriterLockOptions): Promise<WriterLock> {
    const probe = options.probe ?? localProcessProbe();
    const clock = options.clock ?? systemClock;
    const now = clock.now();
    const mine: LockOwner = {
      schema: LOCK_SCHEMA,
      pid: probe.pid,
      host: probe.host,
      purpose: options.purpose,
      acquiredAt: now,
      heartbeatAt: now,
      token: randomBytes(8).toString('hex'),
    };
    let holder: LockOwner | undefined;
    for (let attempt = 0; attempt < ACQUIRE_ATTEMPTS; attempt++) {
      if (await options.store.createExclusive(options.path, JSON.stringify(mine))) return new WriterLock(options, mine);
      // A lock file with a second name is being made (createExclusive links it) or is not ours to trust: try again.
      const text = await options.store.read(options.path).catch((e: unknown) => {
        if (isLinkFailure(e)) return undefined;
        throw e;
      });
      if (text === undefined) continue;
      holder = parseOwner(text);
      if (holder && !isStale(holder, probe, clock.now(), options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS)) {
        throw new WriterLockedError(options.store.locate(options.path), holder);
      }
      await takeOver(options.store, options.path, text);
    }
    throw new WriterLockedError(options.store.locate(options.path), holder ?? unknownOwner(now));
  }

  /** The owner as the lock file says. */
  get current(): LockOwner {
    return this.owner;
  }

  /** Refreshes the heartbeat; false when the lock is no longer this owner's (taken over after a long stall). */
  async heartbeat(): Promise<boolean> {
    if (this.released || !(await this.stillMine())) return false;
    this.owner = { ...this.owner, heartbeatAt: (this.options.clock ?? systemClock).now() };
    await this.options.store.write(this.options.path, JSON.stringify(this.owner));
    return true;
  }

  /** Refreshes the heartbeat every `intervalMs` until released; the timer never keeps the process alive. */
  startHeartbeat(intervalMs = DEFAULT_HEARTBEAT_MS, onLost?: () => void): { dispose(): void } {
    const timer = setInterval(() => {
      void this.heartbeat().then(
        (held) => {
          if (!held && !this.released) onLost?.();
        },
        () => undefined,
      );
    }, intervalMs);
    timer.unref?.();
    return { dispose: () => clearInterval(timer) };
  }

  /** Removes the lock file if it is still this owner's. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (await this.stillMine()) await this.options.store.remove(this.options.path);
  }

  private async stillMine(): Promise<boolean> {
    const text = await this.options.store.read(this.options.path).catch(() => undefined);
    return text !== undefined && parseOwner(text)?.token === this.owner.token;
  }
}

/** Gone when its process ended on this host, or when its heartbeat is older than the limit (any host). */
function isStale(owner: LockOwner, probe: ProcessProbe, now: number, staleAfterMs: number): boolean {
  if (owner.host === probe.host && owner.pid !== probe.pid && !probe.isAlive(owner.pid)) return true;
  return now - owner.heartbeatAt > staleAfterMs;
}

/**
 * Moves the stale lock out of the way. Another process may have done so first and created its own
 * lock meanwhile: what was moved is checked, and a lock that is not the stale one is put back.
 */
async function takeOver(store: Store, path: string, staleText: string): Promise<void> {
  const aside = `${path}.stale-${randomBytes(6).toString('hex')}`;
  try {
    await store.rename(path, aside);
  } catch {
    return; // Gone already: the next round sees who has it now.
  }
  const moved = await store.read(aside);
  if (moved !== undefined && moved !== staleText) await store.createExclusive(path, moved);
  await store.remove(aside);
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isRecord(v) &&
      typeof v.pid === 'number' &&
      typeof v.host === 'string' &&
      typeof v.purpose === 'string' &&
      typeof v.acquiredAt === 'number' &&
      typeof v.heartbeatAt === 'number' &&
      typeof v.token === 'string'
      ? {
          schema: typeof v.schema === 'number' ? v.schema : LOCK_SCHEMA,
          pid: v.pid,
          host: v.host,
          purpose: v.purpose,
          acquiredAt: v.acquiredAt,
          heartbeatAt: v.heartbeatAt,
          token: v.token,
        }
      : undefined;
  } catch {
    return undefined;
  }
}

function unknownOwner(now: number): LockOwner {
  return { schema: LOCK_SCHEMA, pid: 0, host: 'unknown', purpose: 'Another writer', acquiredAt: now, heartbeatAt: now, token: '' };
}
