/** The state written whole to `state.json` with an atomic write (the Store's promise). */
import type { Store } from '../ports';
import type { SessionState } from './sessionState';
import type { StatePersistence } from './stateCell';

export class StateFile implements StatePersistence {
  constructor(
    private readonly store: Store,
    private readonly path: string,
  ) {}

  async write(state: SessionState): Promise<void> {
    await this.store.write(this.path, JSON.stringify(state));
  }
}
