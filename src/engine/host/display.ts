/**
 * The engine's public surface for what a host shows: the read models of the dashboard, the tree
 * and the status bar, and the words and numbers they are written in (counts, levels, compressions,
 * the status report, an error in plain words).
 */
export { errorMessage } from '../errors';
export { counted, formatCount } from '../text/numbers';
export { shortenEnd } from '../text/shorten';
export { earlierLinesNote, levelChange, levelFigure, levelShift } from '../levelWording';
export { describeCompression } from '../activity/lastCompression';
export { describePromptCache } from '../activity/promptCacheWording';
export { FirstOfEachKind } from '../activity/firstOfEachKind';
export { describePeak, renderAnswerSummary } from '../activity/answerSummaryText';
export { renderStatusReport } from '../activity/statusReport';
export { AGE_LABELS } from '../checkpoints/aging';
export type { EventKind } from '../model/compressionEvent';
export { EVENT_KIND_LABELS } from '../model/compressionEvent';
export type { Checkpoint } from '../model/checkpoint';
export type { Ledger } from '../model/ledgerTypes';
export type { OffloadRecord } from '../model/offloadRecord';
export type { SnapshotSummary } from '../snapshots/snapshot';
export type { CompressionPreview } from '../session/compressionPreview';
export type { ContextFigures } from '../model/preparedContext';
export type { DashboardModel } from '../dashboard/dashboardModel';
export type { CheckpointCard, RetiredCard } from '../dashboard/checkpointCards';
export type { Composition, CompositionPart } from '../dashboard/composition';
export type { ContextItem, ItemAction, ItemList } from '../dashboard/contextItems';
export type { TimelineMarker, TimelineModel } from '../dashboard/timelineModel';
export { parseItemId } from '../dashboard/itemIds';
export { summarizeCompression } from '../activity/compressionSummaryText';
