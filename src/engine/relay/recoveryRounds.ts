/**
 * A ctx model's side of the turn (`../turn/runTurn.ts`): the caller owns the conversation, so the
 * answer stays with it, and the only calls the turn runs are ctx's recovery tools, which the caller
 * did not offer: ctx runs them, adds the call and its result to the request and asks again, so the
 * caller only ever sees tools it offered. Text and the caller's tool calls are forwarded as they arrive.
 */
import type { ContextSession } from '../session/contextSession';
import type { TurnModel } from '../turn/turnPorts';
import type { Message } from '../types';
import type { Outgoing } from './outgoing';
import type { RelayPorts, RelayRequest } from './relayPorts';

/** Most rounds in which the model may call ctx's recovery tools; the last round offers none, so the model answers. */
export const MAX_RECOVERY_ROUNDS = 3;

/**
 * The model of one relayed request. `outgoing` turns the session's messages into what is sent
 * (the caller's own where no tier changed them); `offerRecovery` when something was compressed away; `answered`
 * hears the ids of the tool calls forwarded to the caller.
 */
export function relayModel<Raw, Tool, Part>(
  request: RelayRequest<Raw, Tool>,
  ports: RelayPorts<Raw, Tool, Part>,
  offerRecovery: boolean,
  outgoing: (messages: readonly Message[]) => Outgoing<Raw>[],
  answered: (callIds: readonly string[]) => void = () => undefined,
): TurnModel<Part> {
  const offered = new Set(request.tools.map((t) => ports.toolName(t)));
  const added = offerRecovery ? ports.recoveryTools.filter((t) => !offered.has(ports.toolName(t))) : [];
  const ours = new Set(added.map((t) => ports.toolName(t)));
  const withRecovery = (round: number) => ours.size > 0 && round < MAX_RECOVERY_ROUNDS - 1;
  return {
    answersJoin: 'request',
    maxRounds: MAX_RECOVERY_ROUNDS,
    send: (messages, round) =>
      ports.send(outgoing(messages), withRecovery(round) ? [...request.tools, ...added] : request.tools, request.cancellation),
    runs: (call, round) => withRecovery(round) && ours.has(call.name),
    runTool: async (session: ContextSession, call) => ({ content: await ports.runRecoveryTool(session, call), isError: false }),
    forward: (part) => {
      if (part.kind === 'toolCall') answered([part.call.id]);
      ports.report(part.part);
    },
  };
}
