/**
 * Brings the ledger up to date with new messages: the session intent, every user message
 * verbatim, the markers of user and assistant text, and the tool record.
 *
 * Only what the user or the assistant wrote counts: the text blocks of user and assistant messages
 * that are not injected. Tool results, system messages and injected text (attached files,
 * repository instructions, reminders an agent adds to a user turn) carry content from outside,
 * which must not be able to set goals or lock decisions, nor stand for the user's intent.
 */
import { addArtifact, addDecision, addGoal, addGoalWithStatus, completeGoal, findGoal, setProgress } from './ledgerEdits';
import type { Ledger, LedgerSource, ProgressStatus, UserMessageEntry } from '../model/ledgerTypes';
import { parseMarkers, type Marker } from './markers';
import { recordToolActivity } from './toolRecord';
import { authoredText, requestText, type Message, type ToolCallBlock } from '../types';

export { addDecision, addGoal, completeGoal, withOffloaded } from './ledgerEdits';

/** What `updateLedger` needs from the session. */
export interface LedgerUpdateContext {
  /** Calls of earlier batches, for results that answer them. */
  findCall?(callId: string): ToolCallBlock | undefined;
  countText(text: string): Promise<number>;
  /** Time for messages that carry none. */
  readonly now: number;
  /** A fresh id for a goal or a decision; `prefix` is `goal` or `decision`. */
  newId(prefix: string): string;
}

/** A slash command alone (`/model`, `/init`): the user working the tool, not the task they set; it stays one of their messages. */
const BARE_COMMAND = /^\s*\/[\w:.-]+\s*$/;

/** A `[CHECKPOINT]` with no status reports a step reached. */
const DEFAULT_CHECKPOINT_STATUS: ProgressStatus = 'completed';

/**
 * The ledger with `messages` taken in. Messages already recorded (same id) are not added twice,
 * so a batch can be replayed safely.
 */
export async function updateLedger(ledger: Ledger, messages: readonly Message[], ctx: LedgerUpdateContext): Promise<Ledger> {
  let next = ledger;
  const known = new Set(ledger.userMessages.map((e) => e.messageId));
  const added: UserMessageEntry[] = [];
  for (const msg of messages) {
    if (msg.role !== 'user' && msg.role !== 'assistant') continue;
    const at = msg.at ?? ctx.now;
    const text = authoredText(msg);
    if (msg.role === 'user' && text.trim().length > 0 && next.intent === undefined && !BARE_COMMAND.test(text)) {
      next = { ...next, intent: { text, messageId: msg.id, at } };
    }
    // A command's prompt is kept with the user's messages: it is what they asked for, in the command's words.
    const asked = msg.role === 'user' ? requestText(msg) : '';
    if (asked.trim().length > 0 && !known.has(msg.id)) {
      known.add(msg.id);
      added.push({ messageId: msg.id, at, text: asked, tokens: await ctx.countText(asked) });
    }
    for (const block of msg.blocks) {
      if (block.type !== 'text' || block.injected === true) continue;
      for (const marker of parseMarkers(block.text)) next = applyMarker(next, marker, msg.role, msg.id, at, ctx);
    }
  }
  const tools = recordToolActivity(messages, next.tools, ctx.findCall?.bind(ctx), ctx.now);
  // Unchanged, it stays the same object: what is derived from it (the rendered ledger) is kept.
  if (next === ledger && added.length === 0 && tools === ledger.tools) return ledger;
  return { ...next, userMessages: added.length > 0 ? [...next.userMessages, ...added] : next.userMessages, tools };
}

/** The ledger with one marker applied. */
export function applyMarker(
  ledger: Ledger,
  marker: Marker,
  source: LedgerSource,
  messageId: string | undefined,
  at: number,
  ids: Pick<LedgerUpdateContext, 'newId'>,
): Ledger {
  switch (marker.kind) {
    case 'goal':
      if (marker.status !== 'completed') return addGoal(ledger, marker.text, source, at, ids.newId('goal'), messageId);
      return findGoal(ledger, marker.text) >= 0
        ? completeGoal(ledger, marker.text, at)
        : addGoalWithStatus(ledger, marker.text, 'completed', source, at, ids.newId('goal'), messageId);
    case 'decision':
      return addDecision(ledger, marker.text, source, at, ids.newId('decision'), messageId);
    case 'checkpoint':
      return setProgress(ledger, marker.text, progressStatus(marker), source, at);
    case 'artifact':
      return addArtifact(ledger, marker.text);
    case 'next':
      return { ...ledger, nextStep: { text: marker.text, source, at } };
  }
}

function progressStatus(marker: Marker): ProgressStatus {
  return marker.status === undefined || marker.status === 'locked' ? DEFAULT_CHECKPOINT_STATUS : marker.status;
}
