/**
 * Routes a request to the session of its conversation and adds only what is new. Callers re-send
 * the whole history with every request: its known prefix is recognised by chain digest (messages
 * equal to those of a recent request are compared, not hashed again), the session continues from
 * there, and a changed prefix branches. The session is saved by whoever prepares it next.
 */
import { errorMessage } from '../errors';
import type { CompressionEvent } from '../compressionEvent';
import { newMessageId } from '../ids';
import type { Clock, Logger, Store } from '../ports';
import type { ContextSession } from '../session/contextSession';
import { message, type Message, type Role } from '../types';
import { writeBranch } from './branchSession';
import { leftBehind } from './branchState';
import { ConversationIndex } from './conversationIndex';
import type { IncomingMessage } from './incomingMessage';
import { SeenConversations } from './seenConversations';
import { SerialQueue } from './serialQueue';
import { ConversationTrack, type TrackPosition } from './track';
import { TrackStore } from './trackStore';

/** Where sessions come from: the host creates and opens them, and follows them in its UI. */
export interface SessionSource {
  /** A new, empty session. */
  create(): Promise<ContextSession>;
  /** A stored session, or undefined when it is gone. */
  open(id: string): Promise<ContextSession | undefined>;
}

export interface RouterDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** How a request related to the conversations ctx knew. */
export type RouteKind = 'continued' | 'branched' | 'started';

export interface Routed<Raw> {
  readonly session: ContextSession;
  readonly kind: RouteKind;
  /** Caller messages that were new to the session. */
  readonly added: number;
  /** What tier 1 did to them on arrival. */
  readonly events: readonly CompressionEvent[];
  /**
   * The caller's message of this request for a session message, when the session holds it
   * exactly as it was added: such a message is forwarded as the caller sent it.
   */
  rawFor(message: Message): Raw | undefined;
}

const ID_PREFIX: Record<Role, string> = { system: 's', user: 'u', assistant: 'a', tool: 't' };

export class ConversationRouter {
  private readonly index = new ConversationIndex();
  private readonly seen = new SeenConversations();
  private readonly tracks: TrackStore;
  private readonly queue = new SerialQueue();
  /** Session messages exactly as they were added (no tier has replaced them since). */
  private readonly pristine = new WeakSet<Message>();

  constructor(private readonly deps: RouterDeps) {
    this.tracks = new TrackStore(deps.store);
  }

  /**
   * Finds or creates the session of a conversation, adds its new messages, and runs `then` on it
   * before the next request is routed: whatever changes a session (adding, preparing) happens one
   * request at a time, while the answers of earlier requests may still be streaming.
   */
  route<Raw, T>(
    conversation: readonly IncomingMessage<Raw>[],
    sessions: SessionSource,
    then: (routed: Routed<Raw>) => Promise<T>,
  ): Promise<T> {
    return this.queue.run(async () => then(await this.routeNow(conversation, sessions)));
  }

  private async routeNow<Raw>(conversation: readonly IncomingMessage<Raw>[], sessions: SessionSource): Promise<Routed<Raw>> {
    const { chain, digests, seen } = this.seen.chainFor(conversation);

    const { session, track, kind } = await this.sessionFor(chain, digests, sessions);
    const known = track.length;
    const now = this.deps.clock.now();
    const added: Message[] = [];
    const positions: TrackPosition[] = [];
    for (let i = known; i < conversation.length; i++) {
      const m = conversation[i];
      const msg = m.blocks.length > 0 ? message(newMessageId(ID_PREFIX[m.role], now), m.role, m.blocks, now) : undefined;
      if (msg) added.push(msg);
      const anchor = m.blocks.some((b) => b.type !== 'text');
      positions.push({ chain: chain[i], digest: digests[i], ...(anchor ? { anchor } : {}), ids: msg ? [msg.id] : [] });
    }
    const events = added.length > 0 ? await session.add(added) : [];
    if (positions.length > 0) {
      positions[positions.length - 1] = { ...positions[positions.length - 1], archived: session.state.archivedCount };
    }
    // Tier 1 replaces what it offloads; the rest is in the session exactly as added.
    const arrived = new Set(added.length > 0 ? session.messages.slice(-added.length) : []);
    for (const m of added) if (arrived.has(m)) this.pristine.add(m);
    this.index.extend(track, positions);
    this.seen.remember(session.id, seen);
    try {
      await this.tracks.append(session.id, positions);
      if (known === 0 && positions.length > 0) await this.tracks.addHead(positions[0].chain, session.id);
    } catch (e) {
      this.warnUnsaved(e);
    }

    const rawById = new Map<string, Raw>();
    track.positions.forEach((p, i) => p.ids.forEach((id) => rawById.set(id, conversation[i].raw)));
    return {
      session,
      kind,
      added: positions.length,
      events,
      rawFor: (m) => (this.pristine.has(m) ? rawById.get(m.id) : undefined),
    };
  }

  private async sessionFor(
    chain: readonly string[],
    digests: readonly string[],
    sessions: SessionSource,
  ): Promise<{ session: ContextSession; track: ConversationTrack; kind: RouteKind }> {
    let match = this.index.match(chain, digests);
    if (match.kind === 'new' && chain.length > 0) {
      await this.loadStarting(chain[0]);
      match = this.index.match(chain, digests);
    }
    if (match.kind === 'continue') {
      const session = await sessions.open(match.track.sessionId);
      const known = match.track.archivedAfter;
      if (session && (known === undefined || known === session.state.archivedCount)) {
        return { session, track: match.track, kind: 'continued' };
      }
      // The session holds messages its track does not know (a track that could not be saved or read in full):
      // continuing would add them twice, so the conversation goes on in a branch of what the track does know.
      if (session) return this.branch(session, match.track, match.track.length, digests, sessions);
    } else if (match.kind === 'branch') {
      const parent = await sessions.open(match.track.sessionId);
      if (parent) return this.branch(parent, match.track, match.common, digests, sessions);
    }
    if (match.kind !== 'new') this.index.remove(match.track.sessionId);
    return this.start(sessions);
  }

  private async start(sessions: SessionSource): Promise<{ session: ContextSession; track: ConversationTrack; kind: RouteKind }> {
    const session = await sessions.create();
    const track = new ConversationTrack(session.id);
    this.index.add(track);
    return { session, track, kind: 'started' };
  }

  private async branch(
    parent: ContextSession,
    from: ConversationTrack,
    common: number,
    digests: readonly string[],
    sessions: SessionSource,
  ): Promise<{ session: ContextSession; track: ConversationTrack; kind: RouteKind }> {
    await parent.save();
    const { rewritten, abandoned } = leftBehind(from.positions.slice(common), digests.slice(common));
    const id = await writeBranch({ parent, shared: from.idsBefore(common), abandoned }, { store: this.deps.store, clock: this.deps.clock });
    const session = await sessions.open(id);
    if (!session) throw new Error(`The branch ${id} of session ${parent.id} could not be opened after it was written.`);
    // The shared positions, with the branch's own archived count on the last one.
    const shared = from.positions.slice(0, common).map(({ archived: _archived, ...p }): TrackPosition => p);
    if (shared.length > 0) shared[shared.length - 1] = { ...shared[shared.length - 1], archived: session.state.archivedCount };
    const track = new ConversationTrack(id, shared);
    this.index.add(track);
    try {
      await this.tracks.append(id, track.positions);
      const head = track.at(0);
      if (head) await this.tracks.addHead(head.chain, id);
    } catch (e) {
      this.warnUnsaved(e);
    }
    this.deps.logger.info(
      `Conversation of session ${parent.id} ${rewritten ? 'rewritten by the caller' : 'changed'} after message ${common} of ${from.length}: ` +
        `continuing in branch ${id}.`,
    );
    return { session, track, kind: 'branched' };
  }

  /** Reads the stored tracks of sessions whose conversation starts with this digest. */
  private async loadStarting(head: string): Promise<void> {
    const ids = await this.tracks.sessionsStartingWith(head).catch(() => []);
    for (const id of ids.reverse()) {
      if (this.index.has(id)) continue;
      const track = await this.tracks.read(id).catch(() => undefined);
      if (track && track.length > 0) this.index.add(track);
    }
  }

  private warnUnsaved(e: unknown): void {
    this.deps.logger.warn(
      `The conversation track could not be saved (${errorMessage(e)}); after a reload this conversation starts a new session.`,
    );
  }
}
