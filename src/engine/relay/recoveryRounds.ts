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
  const ours = new Set(recoveryToolsAdded(request, ports, offerRecovery).map((t) => ports.toolName(t)));
  return {
    answersJoin: 'request',
    maxRounds: MAX_RECOVERY_ROUNDS,
    send: (messages, round) => ports.send(outgoing(messages), roundTools(request, ports, offerRecovery, round), request.cancellation),
    runs: (call, round) => ours.has(call.name) && round < MAX_RECOVERY_ROUNDS - 1,
    runTool: async (session: ContextSession, call) => ({ content: await ports.runRecoveryTool(session, call), isError: false }),
    forward: (part) => {
      if (part.kind === 'toolCall') answered([part.call.id]);
      ports.report(part.part);
    },
  };
}

/** ctx's recovery tools the caller did not offer itself, when something was compressed away. */
function recoveryToolsAdded<Raw, Tool, Part>(
  request: RelayRequest<Raw, Tool>,
  ports: RelayPorts<Raw, Tool, Part>,
  offerRecovery: boolean,
): readonly Tool[] {
  if (!offerRecovery) return [];
  const offered = new Set(request.tools.map((t) => ports.toolName(t)));
  return ports.recoveryTools.filter((t) => !offered.has(ports.toolName(t)));
}

/**
 * The tools a round sends: the caller's, then ctx's recovery tools while the model may still call them. A request
 * of ctx's own asked as the conversation's next one sends those of round 0, as the conversation's requests begin.
 */
export function roundTools<Raw, Tool, Part>(
  request: RelayRequest<Raw, Tool>,
  ports: RelayPorts<Raw, Tool, Part>,
  offerRecovery: boolean,
  round: number,
): readonly Tool[] {
  const added = recoveryToolsAdded(request, ports, offerRecovery);
  return added.length > 0 && round < MAX_RECOVERY_ROUNDS - 1 ? [...request.tools, ...added] : request.tools;
}
