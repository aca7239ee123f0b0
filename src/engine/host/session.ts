/**
 * The engine's public surface for running a session: create a `ContextSession`, run a turn through
 * it with `runTurn` (the host gives the turn its ports), run work outside a turn so it reports like
 * one, and follow what the session did through its events and the figures kept from them.
 */
export type { SessionDeps, TurnOptions } from '../session/contextSession';
export { ContextSession } from '../session/contextSession';
export type { EditOutcome } from '../session/itemEdit';
export { runTurn } from '../turn/runTurn';
export type { ToolOutput, TurnModel } from '../turn/turnPorts';
export type { TurnEnd } from '../turn/turnOutcome';
export { compressionProgress, compressReported, measureReported, whileCompressing } from '../turn/sessionWork';
export type { SessionEvent } from '../turn/sessionEvents';
export { IGNORE_EVENTS } from '../turn/sessionEvents';
export { SessionActivities } from '../turn/sessionActivities';
export type { Peak } from '../activity/answerActivity';
export { AnswerActivity } from '../activity/answerActivity';
export type { CompressionRecord } from '../activity/lastCompression';
export type { PreparedContext } from '../model/preparedContext';
export type { CompressionEvent } from '../model/compressionEvent';
export type { ContextStatus } from '../activity/contextStatus';
export { contextStatus } from '../activity/contextStatus';
export { budgetFor } from '../budget';
export { Emitter } from '../events';
export { shortHashOfParts } from '../text/shortHash';
export type { CacheTally, RequestReuse } from '../model/cacheTally';
export { EMPTY_CACHE_TALLY, reuseShare } from '../model/cacheTally';
export { CACHE_READ_PRICE, CACHE_WRITE_PRICE, pricedInput, totalPricedInput } from '../promptCache/cachePricing';
export { breakpointsOf } from '../promptCache/requestLayout';
