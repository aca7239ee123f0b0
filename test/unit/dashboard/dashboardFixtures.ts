/** Sessions built for the dashboard's tests: a ledger, tool results kept and offloaded, checkpoints. */
import type { ContextSession } from '../../../src/engine/session/contextSession';
import { message, textBlock } from '../../../src/engine/types';
import { assistant, call, filler, result, user } from '../support/builders';
import { sessionRig, type SessionRig } from '../support/session';

/** A budget large enough that nothing is compressed on its own. */
export const ROOMY_BUDGET = 100_000;
export const RESERVE = 4_096;

/** Adds a user turn and an assistant answer of about `tokens` tokens. */
export async function exchange(session: ContextSession, index: number, tokens = 2_000): Promise<void> {
  await session.add([
    user(`Request number ${index}: please handle item-${index} carefully.`),
    assistant(`Working on item-${index}.\n${filler(tokens)}`),
  ]);
}

/**
 * A session with something in every part: a system prompt, a goal and a decision, a kept tool
 * result, an offloaded one (over the threshold), and conversation text.
 */
export async function furnishedSession(): Promise<SessionRig> {
  const rig = sessionRig({ offloadThresholdTokens: 2_000 });
  const s = rig.session;
  await s.add([message('sys', 'system', [textBlock('You are a careful release engineer.')])]);
  await s.add([user('Prepare the 4.2 release notes from the changelog.', 'u-intent')]);
  await s.addGoal('Ship the notes before Friday');
  await s.addDecision('Notes are written in English only');
  await s.add([
    call('c-read', 'read_file', { path: 'CHANGELOG.md' }, 'Reading the changelog.'),
    result('c-read', filler(900, 'changelog'), false, 'read_file'),
  ]);
  await s.add([call('c-log', 'fetch_log', { build: 1842 }), result('c-log', filler(6_000, 'buildlog'), false, 'fetch_log')]);
  await s.add([assistant(`The changelog lists 14 fixes.\n${filler(300)}`, 'a-answer')]);
  return rig;
}
