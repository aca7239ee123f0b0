/** The archived messages of a session as its readers see them (the archive that keeps them is `session/sessionArchive`). */
import type { Message } from '../types';

/** Every archived message in order, with its 1-based position. */
export interface ArchivedMessages {
  readonly messages: readonly Message[];
  byId(id: string): Message | undefined;
  /** 1-based position in the archive (the parent's messages first); 0 when unknown. */
  position(id: string): number;
}
