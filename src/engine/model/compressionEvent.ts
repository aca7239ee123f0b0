/** One thing the engine did to the context, for the status report's history and the session log. */
import type { RecallFigures } from './recallFigures';

/**
 * What an event is. Only some kinds are a tier's work (offload, truncate, checkpoint, as their labels
 * say); the others are the other steps, the checks and the user's actions.
 */
export type EventKind =
  | 'offload'
  | 'truncate'
  | 'watermark'
  | 'compress-results'
  | 'checkpoint'
  | 'age'
  | 'drift'
  | 'recall'
  | 'snapshot'
  | 'critical'
  | 'drop'
  | 'undo';

/** The events' names, so a log can be filtered by what happened (design §10). */
export type EngineEventName =
  | 'compressed'
  | 'compression-skipped'
  | 'compression-error'
  | 'rollover-complete'
  | 'checkpoint-created'
  /** The model's summary replaced the deterministic one of the latest checkpoint: no new checkpoint. */
  | 'checkpoint-upgraded'
  | 'checkpoint-aged'
  | 'snapshot-created'
  | 'snapshot-restored'
  | 'snapshot-error'
  | 'auto-snapshot-created'
  | 'drift-detected'
  /** The recall check ran after a checkpoint (design §6.2); its figures are in the detail. */
  | 'recall-checked'
  | 'item-dropped'
  | 'item-offloaded'
  | 'compression-undone';

export interface CompressionEvent {
  readonly at: number;
  readonly kind: EventKind;
  readonly savedTokens: number;
  /** Plain words, e.g. "Offloaded read_file result (18,204 tokens) to 2026…_read_file_c1.txt". */
  readonly detail: string;
  /** Store path of the file the event wrote, if any (an offloaded result). */
  readonly file?: string;
  /** The event's name, where it has one. */
  readonly name?: EngineEventName;
  /** For a recall check: its figures. */
  readonly recall?: RecallFigures;
  /** The checkpoint the event is about: the one created or aged, or checked by the drift check. */
  readonly checkpointId?: string;
  /** The snapshot the event took, or the one an undo restored (which is not undone twice). */
  readonly snapshotId?: string;
}

/** What each kind is called where people read it (the status report, the dashboard). */
export const EVENT_KIND_LABELS: Readonly<Record<EventKind, string>> = {
  offload: 'Tier 1 · offload',
  truncate: 'Tier 2 · truncate inputs',
  watermark: 'Watermark',
  'compress-results': 'Old results compressed',
  checkpoint: 'Tier 3 · checkpoint',
  age: 'Checkpoint aged',
  drift: 'Drift check',
  recall: 'Recall check',
  snapshot: 'Snapshot',
  critical: 'CRITICAL',
  drop: 'Dropped by you',
  undo: 'Compression undone',
};
