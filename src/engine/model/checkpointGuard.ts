/** The type guard a checkpoint read back from storage (a state file, a snapshot) goes through. */
import { isStateNumber } from './stateNumbers';
import { isRecallFigures } from './recallFigures';
import { isRecord } from '../schema';
import type { Checkpoint, CheckpointAge } from './checkpoint';

/** The age steps of `CheckpointAge`: recent, old, ancient, merged. */
const AGES: readonly CheckpointAge[] = [0, 1, 2, 3];

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = isStateNumber;
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isAge = (v: unknown): v is CheckpointAge => typeof v === 'number' && (AGES as readonly number[]).includes(v);

/** True when `v` is a well-formed checkpoint with an age of 0 to 3. */
export function isCheckpoint(v: unknown): v is Checkpoint {
  return (
    isRecord(v) &&
    isString(v.id) &&
    isAge(v.age) &&
    isString(v.range) &&
    isStrings(v.messageIds) &&
    isString(v.summary) &&
    isString(v.summarizedBy) &&
    isNumber(v.createdAt) &&
    (v.compressedAt === undefined || isNumber(v.compressedAt)) &&
    isNumber(v.originalTokens) &&
    isNumber(v.currentTokens) &&
    isNumber(v.compressionCount) &&
    isNumber(v.compressionNumber) &&
    isStrings(v.keyDecisions) &&
    isStrings(v.filesModified) &&
    isStrings(v.nextSteps) &&
    (v.recall === undefined || isRecallFigures(v.recall))
  );
}
