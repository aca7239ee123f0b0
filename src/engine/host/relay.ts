/**
 * The engine's public surface for ctx models: route an incoming chat request to its session,
 * relay it through the session to the real model, and count and report the window as the host's
 * chat sees it.
 */
export { ConversationRouter } from '../conversation/conversationRouter';
export type { IncomingMessage } from '../conversation/incomingMessage';
export { relayRequest } from '../relay/relayRequest';
export type { RelayPart, RelayPorts } from '../relay/relayPorts';
export type { Outgoing } from '../relay/outgoing';
export { reportedInputTokens } from '../relay/reportedWindow';
export { messageTokensAsSent } from '../relay/sentTokens';
export { readUntilCancelled } from '../turn/untilCancelled';
