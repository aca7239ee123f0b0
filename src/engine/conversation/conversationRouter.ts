/**
 * Routes a request to the session of its conversation and adds only what is new. Callers re-send
 * the whole history with every request: its known prefix is recognised by chain digest (messages
 * equal to those of a recent request are compared, not hashed again), the session continues from
 * there, and a changed prefix branches. The session is saved by whoever prepares it next.
 */
import { errorMessage } from '../errors';
import type { CompressionEvent } from '../model/compressionEvent';
import { newMessageId } from '../ids';
import type { Clock, Logger, Store } from '../ports';
import type { ContextSession } from '../session/contextSession';
import { injectedTextBlock, message, type Message, type Role } from '../types';
import { writeBranch } from './branchSession';
import { leftBehind } from './branchState';
import { ConversationIndex } from './conversationIndex';
import type { IncomingMessage } from './incomingMessage';
import {
  anchorDigests,
  recogniseAnsweredRewrite,
  recogniseRewrite,
  requestDigest,
  requestShape,
  type RewrittenHistory,
} from './rewrittenHistory';
import { SeenConversations } from './seenConversations';
import { SerialQueue } from './serialQueue';
import { ConversationTrack, type TrackPosition } from './track';
import { TrackStore } from './trackStore';
import { isAnchor, isUserRequest, sharesMoreThanInstructions } from './userRequest';

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

/** Stored tracks read when a rewritten conversation's first message names none (after a reload). */
const RECENT_TRACKS_READ = 8;
/** Tool calls of the model's answers remembered, newest kept: enough for every conversation running at once. */
const ANSWERED_CALLS_KEPT = 2_000;

/** The session a request goes to, the track that follows it, and for a rewritten conversation what the session holds already. */
interface Found {
  readonly session: ContextSession;
  readonly track: ConversationTrack;
  readonly kind: RouteKind;
  /** For each request message up to the last one the session holds, its old position, or undefined for the caller's own text. */
  readonly rewritten?: RewrittenHistory['held'];
}

const ID_PREFIX: Record<Role, string> = { system: 's', user: 'u', assistant: 'a', tool: 't' };

export class ConversationRouter {
  private readonly index = new ConversationIndex();
  private readonly seen = new SeenConversations();
  private readonly tracks: TrackStore;
  private readonly queue = new SerialQueue();
  /** Session messages exactly as they were added (no tier has replaced them since). */
  private readonly pristine = new WeakSet<Message>();
  /** The session whose request the model answered with each tool call id, oldest first. */
  private readonly answered = new Map<string, string>();

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

  /**
   * Notes the tool calls the model made in its answer to a request of this session: a caller that compacts before it
   * sends their results back is recognised by them (see `recogniseAnsweredRewrite`).
   */
  noteAnswered(sessionId: string, callIds: readonly string[]): void {
    for (const id of callIds) {
      this.answered.delete(id);
      this.answered.set(id, sessionId);
    }
    for (const oldest of this.answered.keys()) {
      if (this.answered.size <= ANSWERED_CALLS_KEPT) break;
      this.answered.delete(oldest);
    }
  }

  private async routeNow<Raw>(conversation: readonly IncomingMessage<Raw>[], sessions: SessionSource): Promise<Routed<Raw>> {
    const { chain, digests, seen } = this.seen.chainFor(conversation);

    const { session, track, kind, rewritten } = await this.sessionFor(conversation, chain, digests, sessions);
    const start = track.length;
    /** Request messages the session held before this request. */
    let known = start;
    const now = this.deps.clock.now();
    const added: Message[] = [];
    const positions: TrackPosition[] = [];
    // The first request is marked in a track's first batch; a rewritten conversation had it already, kept or not.
    let hasRequest = rewritten !== undefined || start > 0;
    for (let i = start; i < conversation.length; i++) {
      const m = conversation[i];
      const held = rewritten?.[i];
      if (held) {
        // Already in the session: the rewritten track points at the messages it became.
        const { archived: _archived, ...kept } = held;
        positions.push({ ...kept, chain: chain[i] });
        known++;
        continue;
      }
      // What the caller wrote in place of older messages (its summary) is the caller's text, not the user's;
      // a tool exchange among the resent ones that ctx does not hold as sent is a copy the caller re-rendered.
      const callers = rewritten !== undefined && i < rewritten.length;
      if (callers && isAnchor(m)) {
        positions.push({ chain: chain[i], digest: digests[i], anchor: true, ids: [] });
        known++;
        continue;
      }
      const blocks = callers ? m.blocks.map((b) => (b.type === 'text' ? injectedTextBlock(b.text) : b)) : m.blocks;
      const msg = blocks.length > 0 ? message(newMessageId(ID_PREFIX[m.role], now), m.role, blocks, now) : undefined;
      if (msg) added.push(msg);
      const request = !hasRequest && !callers && isUserRequest(m);
      hasRequest ||= request;
      positions.push({
        chain: chain[i],
        digest: digests[i],
        ...(isAnchor(m) ? { anchor: true } : {}),
        ...(request ? { request } : {}),
        ids: msg ? [msg.id] : [],
      });
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
      if (rewritten) await this.tracks.replace(session.id, positions);
      else await this.tracks.append(session.id, positions);
      if (start === 0 && positions.length > 0) await this.tracks.addHead(positions[0].chain, session.id);
    } catch (e) {
      this.warnUnsaved(e);
    }

    const rawById = new Map<string, Raw>();
    track.positions.forEach((p, i) => p.ids.forEach((id) => rawById.set(id, conversation[i].raw)));
    return {
      session,
      kind,
      added: conversation.length - known,
      events,
      rawFor: (m) => (this.pristine.has(m) ? rawById.get(m.id) : undefined),
    };
  }

  private async sessionFor<Raw>(
    conversation: readonly IncomingMessage<Raw>[],
    chain: readonly string[],
    digests: readonly string[],
    sessions: SessionSource,
  ): Promise<Found> {
    let match = this.index.match(chain, digests);
    if (match.kind === 'new' && chain.length > 0) {
      await this.loadStarting(chain[0]);
      match = this.index.match(chain, digests);
    }
    if (match.kind !== 'continue') {
      const shape = requestShape(conversation, digests);
      let found = this.index.rewriteCandidates(anchorDigests(shape), requestDigest(shape));
      if (found.length === 0 && match.kind === 'new' && shape.anchors.some(Boolean)) {
        // After a reload a rewritten conversation's first message names no stored track: the latest ones are read.
        await this.loadRecent();
        found = this.index.rewriteCandidates(anchorDigests(shape), requestDigest(shape));
      }
      const rewrite =
        recogniseRewrite(shape, found) ??
        recogniseAnsweredRewrite(
          shape,
          (id) => this.answered.get(id),
          (id) => this.index.get(id),
        );
      // Recognised only past what the request shares with a track: up to there it is an edit, which branches.
      if (rewrite && (match.kind === 'new' || rewrite.last >= match.common)) {
        const continued = await this.continueRewritten(rewrite, sessions);
        if (continued) return continued;
      }
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
    } else if (match.kind === 'branch' && sharesMoreThanInstructions(conversation.slice(0, match.common))) {
      const parent = await sessions.open(match.track.sessionId);
      if (parent) return this.branch(parent, match.track, match.common, digests, sessions);
    }
    if (match.kind !== 'new') this.index.remove(match.track.sessionId);
    return this.start(sessions);
  }

  /**
   * Continues the session of a conversation its caller rewrote: the session keeps everything it
   * holds, and a new track follows the conversation as the caller now sends it. Undefined when the
   * session is gone or holds messages its track does not know of (then it branches as usual).
   */
  private async continueRewritten(rewrite: RewrittenHistory, sessions: SessionSource): Promise<Found | undefined> {
    const session = await sessions.open(rewrite.track.sessionId);
    const known = rewrite.track.archivedAfter;
    if (!session || (known !== undefined && known !== session.state.archivedCount)) return undefined;
    const track = new ConversationTrack(session.id);
    this.index.add(track);
    const replaced = rewrite.held.filter((p) => p === undefined).length;
    this.deps.logger.info(
      `Conversation of session ${session.id} rewritten by the caller (${replaced} message(s) of its own in place of older ones): ` +
        `continuing the same session.`,
    );
    return { session, track, kind: 'continued', rewritten: rewrite.held };
  }

  private async start(sessions: SessionSource): Promise<Found> {
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
  ): Promise<Found> {
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
    await this.load(await this.tracks.sessionsStartingWith(head).catch(() => []));
  }

  /** Reads the stored tracks of the latest conversations. */
  private async loadRecent(): Promise<void> {
    await this.load(await this.tracks.recentSessions(RECENT_TRACKS_READ).catch(() => []));
  }

  /** Reads these sessions' stored tracks (newest first) into the index. */
  private async load(ids: readonly string[]): Promise<void> {
    for (const id of [...ids].reverse()) {
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
