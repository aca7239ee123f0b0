/** One line of the earlier-lines pool, as the session state keeps it (how lines are chosen and shown is `checkpoints/earlierLines`). */
import { CONTENT_SOURCES, FACT_KINDS, type ContentSource, type FactKind } from './fact';
import { isRecord } from '../schema';
import { isAmount, isStateNumber } from './stateNumbers';

/** One line of the pool: a fact of a summarized span as a line, with its score and its tokens. */
export interface EarlierLine {
  /** The line as shown (a fact's label and its verbatim text). */
  readonly text: string;
  /** The fact's key: what must stay findable verbatim. */
  readonly key: string;
  readonly kind: FactKind;
  readonly score: number;
  readonly tokens: number;
  /** Order in which the lines were said: they are shown in it. */
  readonly order: number;
  /** A line a tool printed, not a fact: but for a diagnostic, shown only in the part of the room above the facts' (see `EARLIER_PRINTED_SHARE`). */
  readonly printed?: boolean;
  /** For a line of a file's content (an offloaded result's, or a file a tool read): the file; the section shows such lines quoted under its name. */
  readonly from?: string;
  /** With `from`: what the lines are of, when not an offloaded result (see `ContentSource`). */
  readonly fromKind?: ContentSource;
  /** With `from`: the tokens of the heading those lines are shown under, counted once for the first line taken. */
  readonly fromTokens?: number;
}

/** True for a stored earlier line of a known fact kind. */
export const isEarlierLine = (v: unknown): v is EarlierLine =>
  isRecord(v) &&
  typeof v.text === 'string' &&
  typeof v.key === 'string' &&
  typeof v.kind === 'string' &&
  (FACT_KINDS as readonly string[]).includes(v.kind) &&
  isStateNumber(v.score) &&
  isAmount(v.tokens) &&
  isStateNumber(v.order) &&
  (v.printed === undefined || typeof v.printed === 'boolean') &&
  (v.from === undefined || typeof v.from === 'string') &&
  (v.fromTokens === undefined || isAmount(v.fromTokens)) &&
  (v.fromKind === undefined || (CONTENT_SOURCES as readonly unknown[]).includes(v.fromKind));
