/**
 * The one owner of a session's state. Everything that changes the state goes through `update`,
 * which makes a new immutable state object, so an unchanged state is the same object and
 * whatever was derived from it (the request view, its token counts) can be reused. The cell also
 * holds what the user must be told (warnings), and writes the state when it changed.
 */
import { Emitter } from '../events';
import { errorMessage } from '../errors';
import type { Clock, Logger } from '../ports';
import type { SessionState } from '../model/sessionState';
import { rewritesSent } from '../model/frozenContext';

/** What changed: the live messages, a compression, a warning, the ledger, or everything (cleared). */
export type SessionChange = { readonly kind: 'messages' | 'compressed' | 'warning' | 'cleared' | 'ledger' };

/** Something the user should be told in plain words (archive unwritable, state rebuilt…). */
export interface SessionWarning {
  readonly at: number;
  readonly message: string;
}

/** Where the state is written. */
export interface StatePersistence {
  /** Writes the state; `previous` is the state last written (undefined for the first write). */
  write(state: SessionState, previous: SessionState | undefined): Promise<void>;
}

export class SessionStateCell {
  private value: SessionState;
  /** The state as last written; undefined until the first write. */
  private written: SessionState | undefined;
  private readonly warningList: SessionWarning[] = [];
  /** Saves run one after another: each write is computed against the one before it. */
  private saving: Promise<void> = Promise.resolve();
  private readonly changeEmitter = new Emitter<SessionChange>();
  /** Fires whenever the active context, the offloads, the ledger or the warnings change. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    initial: SessionState,
    private readonly persistence: StatePersistence,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** The state already on disk as `initial` is (an opened session), so nothing is written until it changes. */
    writtenAlready = false,
  ) {
    this.value = initial;
    if (writtenAlready) this.written = initial;
  }

  get state(): SessionState {
    return this.value;
  }

  get warnings(): readonly SessionWarning[] {
    return this.warningList;
  }

  /** True when the state changed since it was last written. */
  get dirty(): boolean {
    return this.value !== this.written;
  }

  /**
   * A new state with the patch applied; nothing happens for an empty patch. A patch that rewrites what was already
   * sent also lets go of the frozen context message: the next request renders it anew (a rebase).
   */
  update(patch: Partial<SessionState>): void {
    if (Object.keys(patch).length === 0) return;
    const before = this.value;
    const after: SessionState = { ...before, ...patch, updatedAt: this.clock.now() };
    this.value = after.frozenContext !== undefined && rewritesSent(before, after) ? { ...after, frozenContext: undefined } : after;
  }

  /** Tells the listeners what changed. */
  changed(kind: SessionChange['kind']): void {
    this.changeEmitter.fire({ kind });
  }

  /** Records something the user must be told, logs it and tells the listeners. */
  warn(message: string): void {
    this.logger.warn(message);
    this.warningList.push({ at: this.clock.now(), message });
    this.changeEmitter.fire({ kind: 'warning' });
  }

  /** Writes the state if it changed. A failure is reported, not thrown: the conversation goes on in memory. */
  save(): Promise<void> {
    this.saving = this.saving.then(() => this.writeIfChanged());
    return this.saving;
  }

  private async writeIfChanged(): Promise<void> {
    const state = this.value;
    if (state === this.written) return;
    try {
      await this.persistence.write(state, this.written);
      this.written = state;
    } catch (e) {
      this.warn(
        `The session state could not be saved (${errorMessage(e)}). The conversation goes on; the archive still has every message.`,
      );
    }
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}
