/**
 * Tracks on disk, so a conversation is recognised after a reload: each session's track is an
 * append-only JSONL file in its folder, and one index of first positions (the digest of a
 * conversation's first message) names the sessions that start that way. A track is only read
 * when a request's first message matches nothing in memory.
 */
import type { Store } from '../ports';
import { SCHEMA_VERSION, isRecord } from '../schema';
import { isSessionId, sessionPaths } from '../model/sessionPaths';
import { ConversationTrack, type TrackPosition } from './track';

/** The index of first positions, at the store's root. */
export const CONVERSATION_HEADS_FILE = 'conversations/heads.jsonl';
/** A session's track, in its folder. */
export const TRACK_FILE_NAME = 'conversation.jsonl';

export function trackPath(sessionId: string): string {
  return `${sessionPaths(sessionId).folder}/${TRACK_FILE_NAME}`;
}

const isPosition = (v: unknown): v is TrackPosition & { v: number } =>
  isRecord(v) &&
  v.v === SCHEMA_VERSION &&
  typeof v.chain === 'string' &&
  typeof v.digest === 'string' &&
  (v.anchor === undefined || typeof v.anchor === 'boolean') &&
  (v.request === undefined || typeof v.request === 'boolean') &&
  Array.isArray(v.ids) &&
  v.ids.every((id) => typeof id === 'string') &&
  (v.archived === undefined || typeof v.archived === 'number');

const isHead = (v: unknown): v is { v: number; head: string; session: string } =>
  isRecord(v) && v.v === SCHEMA_VERSION && typeof v.head === 'string' && isSessionId(v.session);

function parseLine<T>(line: string, guard: (v: unknown) => v is T): T | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return guard(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

export class TrackStore {
  constructor(private readonly store: Store) {}

  /**
   * A session's stored track; an unreadable line ends it there (every position depends on the
   * ones before it), and the router then branches rather than continue a session it no longer
   * fully knows.
   */
  async read(sessionId: string): Promise<ConversationTrack | undefined> {
    const text = await this.store.read(trackPath(sessionId));
    if (text === undefined) return undefined;
    const positions: TrackPosition[] = [];
    for (const line of lines(text)) {
      const parsed = parseLine(line, isPosition);
      // A position depends on every one before it: nothing after an unreadable line can be trusted.
      if (!parsed) break;
      const { chain, digest, ids, archived, anchor, request } = parsed;
      positions.push({
        chain,
        digest,
        ids,
        ...(anchor ? { anchor } : {}),
        ...(request ? { request } : {}),
        ...(archived === undefined ? {} : { archived }),
      });
    }
    return new ConversationTrack(sessionId, positions);
  }

  /** Appends positions to a session's track file. */
  async append(sessionId: string, positions: readonly TrackPosition[]): Promise<void> {
    if (positions.length === 0) return;
    await this.store.append(
      trackPath(sessionId),
      positions.map((p) => JSON.stringify({ v: SCHEMA_VERSION, ...p })),
    );
  }

  /**
   * Replaces a session's track with the positions of its conversation as the caller rewrote it
   * (its summary in place of older messages), so the caller's next requests continue it directly.
   */
  async replace(sessionId: string, positions: readonly TrackPosition[]): Promise<void> {
    await this.store.write(trackPath(sessionId), positions.map((p) => `${JSON.stringify({ v: SCHEMA_VERSION, ...p })}\n`).join(''));
  }

  /** Records that a session's conversation starts with this chain digest. */
  async addHead(head: string, sessionId: string): Promise<void> {
    await this.store.append(CONVERSATION_HEADS_FILE, [JSON.stringify({ v: SCHEMA_VERSION, head, session: sessionId })]);
  }

  /** Sessions whose conversation starts with this chain digest, newest first. */
  async sessionsStartingWith(head: string): Promise<string[]> {
    return this.heads((h) => h === head);
  }

  /** The sessions whose conversation started or was rewritten last, newest first, at most `limit`. */
  async recentSessions(limit: number): Promise<string[]> {
    return (await this.heads(() => true)).slice(0, limit);
  }

  private async heads(wanted: (head: string) => boolean): Promise<string[]> {
    const text = (await this.store.read(CONVERSATION_HEADS_FILE)) ?? '';
    const ids = lines(text).flatMap((line) => {
      const parsed = parseLine(line, isHead);
      return parsed && wanted(parsed.head) ? [parsed.session] : [];
    });
    return [...new Set(ids.reverse())];
  }
}
