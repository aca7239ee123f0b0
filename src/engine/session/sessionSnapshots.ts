/**
 * Snapshots of a session: exactly what the model sees, taken before every checkpoint, at high
 * usage, at CRITICAL and on request; restoring one takes a snapshot of the current state first,
 * so a restore can itself be undone. Failures are reported, never thrown.
 */
import type { CompressionEvent } from '../model/compressionEvent';
import { errorMessage } from '../errors';
import type { Clock, Store } from '../ports';
import type { Snapshot, SnapshotReason, SnapshotSummary } from '../snapshots/snapshot';
import { SnapshotStore } from '../snapshots/snapshotStore';
import { counted, formatCount } from '../text/numbers';
import type { StepResult } from '../model/stepResult';
import type { SessionState } from '../model/sessionState';

/**
 * Automatic snapshots kept per session, newest first; older ones are removed as new ones are
 * taken, so a long session's folder does not grow by a copy of the context at every checkpoint.
 * Snapshots taken on request are kept until the user removes them.
 * @default 20
 */
export const AUTOMATIC_SNAPSHOTS_KEPT = 20;

export interface SnapshotTaken extends StepResult {
  readonly summary?: SnapshotSummary;
}

export interface SnapshotRestored extends StepResult {
  readonly snapshot?: Snapshot;
}

export class SessionSnapshots {
  private readonly snapshots: SnapshotStore;

  constructor(
    store: Store,
    sessionId: string,
    private readonly clock: Clock,
  ) {
    this.snapshots = new SnapshotStore(store, sessionId, clock);
  }

  /** Snapshots of this session, newest first. */
  list(): Promise<SnapshotSummary[]> {
    return this.snapshots.list();
  }

  /** Takes a snapshot of the state as the model sees it, `tokens` large. */
  async take(reason: SnapshotReason, name: string | undefined, state: SessionState, tokens: number): Promise<SnapshotTaken> {
    try {
      const summary = await this.snapshots.create({
        ...(name ? { name } : {}),
        reason,
        content: {
          ledger: state.ledger,
          checkpoints: state.checkpoints,
          ...(state.watermark ? { watermark: state.watermark } : {}),
          active: state.active,
          offloads: state.offloads,
          earlierLines: state.earlierLines,
        },
        tokens,
      });
      const automatic = reason !== 'manual';
      if (automatic) await this.removeOldAutomatic();
      const detail =
        `${automatic ? 'Automatic snapshot' : 'Snapshot'} "${summary.name}" taken ` +
        `(${formatCount(tokens)} tokens, ${counted(state.checkpoints.length, 'checkpoint')})`;
      return {
        summary,
        events: [{ ...this.event(detail, automatic ? 'auto-snapshot-created' : 'snapshot-created'), snapshotId: summary.id }],
      };
    } catch (e) {
      return {
        events: [this.event('A snapshot could not be saved', 'snapshot-error')],
        warnings: [`A snapshot could not be saved (${errorMessage(e)}). The conversation goes on; nothing was removed.`],
      };
    }
  }

  /** Keeps the newest automatic snapshots; a snapshot that cannot be removed now is tried again next time. */
  private async removeOldAutomatic(): Promise<void> {
    const automatic = (await this.snapshots.list().catch(() => [])).filter((s) => s.readable && s.reason !== 'manual');
    for (const old of automatic.slice(AUTOMATIC_SNAPSHOTS_KEPT)) await this.snapshots.remove(old.id).catch(() => false);
  }

  /** Reads a snapshot by id or name and returns the state it puts back; undefined when there is none. */
  async read(idOrName: string): Promise<Snapshot | undefined> {
    return this.snapshots.read(idOrName);
  }

  /** The patch that puts a snapshot's content back, and the event that says so. */
  restoring(snapshot: Snapshot): StepResult {
    const c = snapshot.content;
    return {
      patch: {
        ledger: c.ledger,
        checkpoints: c.checkpoints,
        watermark: c.watermark,
        active: c.active,
        offloads: c.offloads,
        earlierLines: c.earlierLines ?? [],
        earlierRoom: 0,
        earlierPrintedRoom: 0,
        putBack: '',
        pendingCheckpointTool: undefined,
      },
      events: [
        this.event(
          `Restored snapshot "${snapshot.name}" (${counted(c.active.length, 'message')}, ${counted(c.checkpoints.length, 'checkpoint')}); ` +
            'the archive still holds everything',
          'snapshot-restored',
        ),
      ],
    };
  }

  private event(detail: string, name: CompressionEvent['name']): CompressionEvent {
    return { at: this.clock.now(), kind: 'snapshot', savedTokens: 0, detail, ...(name ? { name } : {}) };
  }
}
