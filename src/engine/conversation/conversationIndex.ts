/**
 * Finds the session a request continues. Every known prefix is indexed by its chain digest, so the
 * longest prefix a request shares with a known conversation is found with one map lookup per
 * position, from the newest message back: a request that adds two messages to a known
 * conversation is matched after two lookups. Messages that carry tool calls or results (whose ids
 * are unique) are also indexed by their own digest: a request that shares no first message with
 * any conversation but brings back such a message is that conversation, rewritten by its caller.
 */
import type { ConversationTrack, TrackPosition } from './track';

/** What a request is to the conversations ctx knows. */
export type ConversationMatch =
  /** Every message of the track is the start of the request: only what follows is new. */
  | { readonly kind: 'continue'; readonly track: ConversationTrack }
  /**
   * The request shares its first `common` messages with the track (possibly none), then differs:
   * an edited or regenerated message, or the caller's own summary in place of older turns.
   */
  | { readonly kind: 'branch'; readonly track: ConversationTrack; readonly common: number }
  /** No known conversation starts like the request or shares one of its tool exchanges. */
  | { readonly kind: 'new' };

export class ConversationIndex {
  private readonly tracks = new Map<string, ConversationTrack>();
  /** Chain digest → ids of the sessions whose track holds it. */
  private readonly byChain = new Map<string, Set<string>>();
  /** Digest of a message with a tool call or result → ids of the sessions whose track holds it. */
  private readonly byAnchor = new Map<string, Set<string>>();
  /** Digest of a conversation's first user request → ids of the sessions whose track holds it there. */
  private readonly byRequest = new Map<string, Set<string>>();
  /** Session id → when its track was last matched or extended, to prefer the live one. */
  private readonly used = new Map<string, number>();
  private clock = 0;

  has(sessionId: string): boolean {
    return this.tracks.has(sessionId);
  }

  get(sessionId: string): ConversationTrack | undefined {
    return this.tracks.get(sessionId);
  }

  /** Starts following a track (replacing one of the same session). */
  add(track: ConversationTrack): void {
    this.remove(track.sessionId);
    this.tracks.set(track.sessionId, track);
    track.positions.forEach((p) => this.index(p, track.sessionId));
    this.touch(track.sessionId);
  }

  /** Appends positions to a followed track. */
  extend(track: ConversationTrack, positions: readonly TrackPosition[]): void {
    for (const p of positions) {
      track.append(p);
      this.index(p, track.sessionId);
    }
    this.touch(track.sessionId);
  }

  remove(sessionId: string): void {
    const track = this.tracks.get(sessionId);
    if (!track) return;
    for (const p of track.positions) {
      unindex(this.byChain, p.chain, sessionId);
      if (p.anchor) unindex(this.byAnchor, p.digest, sessionId);
      if (p.request) unindex(this.byRequest, p.digest, sessionId);
    }
    this.tracks.delete(sessionId);
    this.used.delete(sessionId);
  }

  /**
   * The match for a request's chain digests (and its messages' own digests). Among tracks that
   * share the longest prefix, one that ends there is continued; otherwise the most recently used
   * one is branched.
   */
  match(chain: readonly string[], digests: readonly string[] = []): ConversationMatch {
    for (let i = chain.length - 1; i >= 0; i--) {
      const candidates = this.candidates(this.byChain.get(chain[i]));
      if (candidates.length === 0) continue;
      const ending = candidates.find((t) => t.length === i + 1);
      if (ending) return { kind: 'continue', track: ending };
      return { kind: 'branch', track: candidates[0], common: i + 1 };
    }
    for (let i = digests.length - 1; i >= 0; i--) {
      const [rewritten] = this.candidates(this.byAnchor.get(digests[i]));
      if (rewritten) return { kind: 'branch', track: rewritten, common: 0 };
    }
    return { kind: 'new' };
  }

  /**
   * Tracks a rewritten request may belong to, most recently used first: those holding one of its
   * messages with a tool call or result, or its first user request as theirs.
   */
  rewriteCandidates(anchorDigests: readonly string[], requestDigest: string | undefined): ConversationTrack[] {
    const ids = new Set<string>();
    for (const d of anchorDigests) this.byAnchor.get(d)?.forEach((id) => ids.add(id));
    if (requestDigest !== undefined) this.byRequest.get(requestDigest)?.forEach((id) => ids.add(id));
    return this.candidates(ids);
  }

  /** The tracks of these sessions, most recently used first. */
  private candidates(ids: ReadonlySet<string> | undefined): ConversationTrack[] {
    if (!ids || ids.size === 0) return [];
    return [...ids].flatMap((id) => this.tracks.get(id) ?? []).sort((a, b) => this.usedAt(b) - this.usedAt(a));
  }

  private index(p: TrackPosition, sessionId: string): void {
    add(this.byChain, p.chain, sessionId);
    if (p.anchor) add(this.byAnchor, p.digest, sessionId);
    if (p.request) add(this.byRequest, p.digest, sessionId);
  }

  private touch(sessionId: string): void {
    this.used.set(sessionId, ++this.clock);
  }

  private usedAt(track: ConversationTrack): number {
    return this.used.get(track.sessionId) ?? 0;
  }
}

function add(map: Map<string, Set<string>>, key: string, sessionId: string): void {
  let ids = map.get(key);
  if (!ids) map.set(key, (ids = new Set()));
  ids.add(sessionId);
}

function unindex(map: Map<string, Set<string>>, key: string, sessionId: string): void {
  const ids = map.get(key);
  ids?.delete(sessionId);
  if (ids?.size === 0) map.delete(key);
}
