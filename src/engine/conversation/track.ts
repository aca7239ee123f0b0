/**
 * A session's track: for each message of the caller's conversation, in order, the chain digest of
 * the conversation up to it and the ids of the engine messages it became. The track is how a
 * request that re-sends the whole history is recognised: its known prefix is matched, and only
 * what follows is new.
 */

export interface TrackPosition {
  /** Chain digest of the conversation up to and including this message. */
  readonly chain: string;
  /** The message's own digest: whether it comes back after a changed prefix tells an edit from a rewrite. */
  readonly digest: string;
  /** Set when the message carries a tool call or result: its unique ids make it recognisable on its own. */
  readonly anchor?: boolean;
  /** Set on the conversation's first message the user wrote: a caller that rewrites its history often keeps it. */
  readonly request?: boolean;
  /** Ids of the session messages this caller message became (one, or none for an empty one). */
  readonly ids: readonly string[];
  /**
   * The session's archived message count once this position was added, on the last position of
   * each request: a session whose count differs holds messages its track does not know of.
   */
  readonly archived?: number;
}

export class ConversationTrack {
  private readonly list: TrackPosition[];

  constructor(
    readonly sessionId: string,
    positions: readonly TrackPosition[] = [],
  ) {
    this.list = [...positions];
  }

  get length(): number {
    return this.list.length;
  }

  get positions(): readonly TrackPosition[] {
    return this.list;
  }

  /** The session's archived count the track last recorded. */
  get archivedAfter(): number | undefined {
    for (let i = this.list.length - 1; i >= 0; i--) {
      const archived = this.list[i].archived;
      if (archived !== undefined) return archived;
    }
    return undefined;
  }

  at(index: number): TrackPosition | undefined {
    return this.list[index];
  }

  append(position: TrackPosition): void {
    this.list.push(position);
  }

  /** Ids of the session messages of the first `count` caller messages. */
  idsBefore(count: number): string[] {
    return this.list.slice(0, count).flatMap((p) => p.ids);
  }

  /** Ids of the session messages of the caller messages from `start` on. */
  idsFrom(start: number): string[] {
    return this.list.slice(start).flatMap((p) => p.ids);
  }
}
