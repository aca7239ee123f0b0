/**
 * Recognises a conversation whose caller replaced part of its history with its own summary
 * (Copilot's agent compacts every few rounds and resends its summary followed by the last rounds
 * verbatim). Such a request shares no prefix with what ctx knows, or only its first message, yet
 * it is the same conversation: the caller keeps messages ctx already holds. Only strong evidence
 * counts, so that two conversations are never merged: a resent message with a tool call or
 * result (whose call ids are unique), or the same first user request with a resent message after
 * the part the caller replaced, or a tool call that ctx relayed from the model for that conversation
 * and that comes back first after the caller's summary (see `recogniseAnsweredRewrite`). A shared
 * system prompt or a generic first message is not evidence.
 */
import type { DigestInput } from './digest';
import type { ConversationTrack, TrackPosition } from './track';
import { isAnchor, isUserRequest } from './userRequest';

/** What the recogniser needs of a request's messages. */
export interface RequestShape {
  /** Each message's own digest. */
  readonly digests: readonly string[];
  /** Which messages carry a tool call or result. */
  readonly anchors: readonly boolean[];
  /** Index of the first message the user wrote, if any. */
  readonly firstRequest?: number;
  /** The ids of the tool calls each message makes (an assistant's); empty for the others. */
  readonly calls: readonly (readonly string[])[];
  /** The call ids of the tool results each message carries; empty for the others. */
  readonly results: readonly (readonly string[])[];
}

/** The shape of a request's messages, with their digests. */
export function requestShape(conversation: readonly DigestInput[], digests: readonly string[]): RequestShape {
  const firstRequest = conversation.findIndex(isUserRequest);
  const calls = conversation.map((m) => (m.role === 'assistant' ? m.blocks.flatMap((b) => (b.type === 'toolCall' ? [b.id] : [])) : []));
  const results = conversation.map((m) => m.blocks.flatMap((b) => (b.type === 'toolResult' ? [b.callId] : [])));
  return { digests, anchors: conversation.map(isAnchor), ...(firstRequest >= 0 ? { firstRequest } : {}), calls, results };
}

/** Digests of the request's messages with a tool call or result. */
export const anchorDigests = (shape: RequestShape): string[] => shape.digests.filter((_, i) => shape.anchors[i]);

/** Digest of the request's first user request, if it has one. */
export const requestDigest = (shape: RequestShape): string | undefined =>
  shape.firstRequest === undefined ? undefined : shape.digests[shape.firstRequest];

/** A request recognised as a track's conversation, rewritten by its caller. */
export interface RewrittenHistory {
  readonly track: ConversationTrack;
  /** Index in the request of the last message the track holds: everything after it is new. */
  readonly last: number;
  /**
   * For each request message up to `last`, the track position that holds it, or undefined for
   * what the caller wrote in place of older messages (its summary) and for a tool exchange the
   * caller re-rendered among those ctx holds.
   */
  readonly held: readonly (TrackPosition | undefined)[];
}

/**
 * The candidate the request is recognisably a rewrite of: the one that holds its latest message,
 * the most recently used (first) among equals.
 */
export function recogniseRewrite(request: RequestShape, candidates: readonly ConversationTrack[]): RewrittenHistory | undefined {
  let best: RewrittenHistory | undefined;
  for (const track of candidates) {
    const held = heldPositions(request.digests, track);
    if (!hasEvidence(request, track, held)) continue;
    let last = held.length - 1;
    while (held[last] === undefined) last--;
    last = pastRerenderedResults(request, track, held, last);
    // What the caller writes in place of older messages is text: a tool exchange ctx does not hold, before the
    // first one it holds, is an older history, not a summary. One among those it holds is a re-rendered copy.
    let firstHeld = held.findIndex((p, i) => p !== undefined && request.anchors[i]);
    if (firstHeld < 0) firstHeld = last;
    if (held.slice(0, firstHeld).some((p, i) => p === undefined && request.anchors[i])) continue;
    if (!best || last > best.last) best = { track, last, held: held.slice(0, last + 1) };
  }
  return best;
}

/**
 * Extends `last` over the tool results right after it that answer calls the track holds with their results: the
 * caller sent them again rendered anew (Copilot shortens the latest result once more follows it), and the session
 * holds them as they were first sent.
 */
function pastRerenderedResults(
  request: RequestShape,
  track: ConversationTrack,
  held: readonly (TrackPosition | undefined)[],
  last: number,
): number {
  const answered = new Set<string>();
  for (let i = 0; i <= last; i++) {
    const p = held[i];
    const resultHeld = p !== undefined && track.positions[track.positions.indexOf(p) + 1]?.anchor === true;
    if (resultHeld) request.calls[i].forEach((id) => answered.add(id));
  }
  let end = last;
  const rerendered = (i: number) =>
    held[i] === undefined && request.results[i]?.length > 0 && request.results[i].every((id) => answered.has(id));
  while (end + 1 < request.digests.length && rerendered(end + 1)) end++;
  return end;
}

/**
 * The track position of each request message, matched in order: a message is held by the first
 * position after the one that held the message before it, so repeated messages ("ok") pair up in
 * conversation order.
 */
function heldPositions(digests: readonly string[], track: ConversationTrack): (TrackPosition | undefined)[] {
  const at = new Map<string, number[]>();
  track.positions.forEach((p, i) => at.set(p.digest, [...(at.get(p.digest) ?? []), i]));
  let after = -1;
  return digests.map((d) => {
    const i = at.get(d)?.find((k) => k > after);
    if (i === undefined) return undefined;
    after = i;
    return track.positions[i];
  });
}

function hasEvidence(request: RequestShape, track: ConversationTrack, held: readonly (TrackPosition | undefined)[]): boolean {
  // A tool call or result comes back with the same call id and the same content.
  if (held.some((p, i) => p !== undefined && request.anchors[i])) return true;
  // The same first request, then what the caller replaced (held by nothing), then a message ctx holds.
  const f = request.firstRequest;
  if (f === undefined || held[f]?.request !== true || f + 1 >= held.length || held[f + 1] !== undefined) return false;
  const requestAt = track.positions.indexOf(held[f] as TrackPosition);
  return held.some((p, i) => i > f + 1 && p !== undefined && track.positions.indexOf(p) > requestAt);
}

/**
 * A request whose caller replaced its history with its own summary right after the model's last answer: the first
 * tool exchange it brings is a tool call ctx relayed from the model for one session's conversation, which ctx never
 * received back before (Copilot's agent compacts between running a call and sending its result). Call ids are unique
 * and ctx saw the model make these in that session, so they name it. Everything before that message is held by the
 * session's track or is the caller's own text; undefined when the calls name no followed track, or several.
 */
export function recogniseAnsweredRewrite(
  request: RequestShape,
  answeredIn: (callId: string) => string | undefined,
  trackOf: (sessionId: string) => ConversationTrack | undefined,
): RewrittenHistory | undefined {
  const first = request.anchors.findIndex(Boolean);
  if (first < 1 || request.calls[first].length === 0) return undefined;
  const sessions = new Set(request.calls[first].map(answeredIn));
  const [sessionId] = sessions;
  if (sessions.size !== 1 || sessionId === undefined) return undefined;
  const track = trackOf(sessionId);
  if (!track) return undefined;
  return { track, last: first - 1, held: heldPositions(request.digests.slice(0, first), track) };
}
