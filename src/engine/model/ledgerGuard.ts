/**
 * The type guard a ledger read back from storage (a state file, a snapshot) goes through.
 * Every entry is checked, nested ones included; optional fields are checked when present.
 */
import { isStateNumber } from './stateNumbers';
import { FACT_KINDS } from './fact';
import { isRecord } from '../schema';
import type {
  CommandRecord,
  Decision,
  ErrorRecord,
  FileAction,
  FileRecord,
  Goal,
  GoalStatus,
  InstructionEntry,
  Ledger,
  LedgerFact,
  LedgerSource,
  OffloadedEntry,
  PinnedEntry,
  PinnedKind,
  ProgressMark,
  ProgressStatus,
  ToolRecord,
  UserMessageEntry,
} from './ledgerTypes';

const SOURCES: readonly LedgerSource[] = ['user', 'assistant', 'command'];
const GOAL_STATUSES: readonly GoalStatus[] = ['active', 'completed', 'paused'];
const PROGRESS_STATUSES: readonly ProgressStatus[] = ['completed', 'in-progress', 'pending'];
const FILE_ACTIONS: readonly FileAction[] = ['read', 'created', 'edited', 'deleted'];
const PINNED_KINDS: readonly PinnedKind[] = ['message', 'toolResult'];

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = isStateNumber;
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const optional = <T>(v: unknown, guard: (x: unknown) => x is T): boolean => v === undefined || guard(v);
const isArrayOf = <T>(v: unknown, guard: (x: unknown) => x is T): v is T[] => Array.isArray(v) && v.every(guard);
const oneOf =
  <T extends string>(values: readonly T[]) =>
  (v: unknown): v is T =>
    typeof v === 'string' && (values as readonly string[]).includes(v);

const isSource = oneOf(SOURCES);

const isGoal = (v: unknown): v is Goal =>
  isRecord(v) &&
  isString(v.id) &&
  isString(v.text) &&
  oneOf(GOAL_STATUSES)(v.status) &&
  isSource(v.source) &&
  isNumber(v.at) &&
  optional(v.messageId, isString);

const isDecision = (v: unknown): v is Decision =>
  isRecord(v) &&
  isString(v.id) &&
  isString(v.text) &&
  isBoolean(v.locked) &&
  isSource(v.source) &&
  isNumber(v.at) &&
  optional(v.messageId, isString);

const isProgressMark = (v: unknown): v is ProgressMark =>
  isRecord(v) && isString(v.text) && oneOf(PROGRESS_STATUSES)(v.status) && isSource(v.source) && isNumber(v.at);

const isUserMessageEntry = (v: unknown): v is UserMessageEntry =>
  isRecord(v) &&
  isString(v.messageId) &&
  isNumber(v.at) &&
  optional(v.text, isString) &&
  optional(v.file, isString) &&
  optional(v.preview, isString) &&
  isNumber(v.tokens);

const isFileRecord = (v: unknown): v is FileRecord =>
  isRecord(v) && isString(v.path) && isArrayOf(v.actions, oneOf(FILE_ACTIONS)) && isNumber(v.lastAt) && isString(v.lastCallId);

const isCommandRecord = (v: unknown): v is CommandRecord =>
  isRecord(v) &&
  isString(v.callId) &&
  isString(v.command) &&
  optional(v.exitCode, isNumber) &&
  isBoolean(v.ok) &&
  isNumber(v.at) &&
  optional(v.output, isString) &&
  optional(v.search, (x): x is true => x === true);

const isErrorRecord = (v: unknown): v is ErrorRecord =>
  isRecord(v) &&
  isString(v.callId) &&
  isString(v.toolName) &&
  isString(v.summary) &&
  optional(v.subject, isString) &&
  isNumber(v.at) &&
  optional(v.waitsOn, (x): x is string[] => isArrayOf(x, isString)) &&
  isBoolean(v.fixed) &&
  optional(v.fixedByCallId, isString) &&
  optional(v.fixedBy, isString);

const isOffloadedEntry = (v: unknown): v is OffloadedEntry =>
  isRecord(v) && isString(v.callId) && isString(v.toolName) && isString(v.file) && isNumber(v.tokens) && optional(v.subject, isString);

const isToolRecord = (v: unknown): v is ToolRecord =>
  isRecord(v) &&
  isArrayOf(v.files, isFileRecord) &&
  isArrayOf(v.commands, isCommandRecord) &&
  isArrayOf(v.errors, isErrorRecord) &&
  isArrayOf(v.offloaded, isOffloadedEntry);

const isInstructionEntry = (v: unknown): v is InstructionEntry =>
  isRecord(v) && isString(v.path) && isString(v.text) && optional(v.applyTo, (x): x is string[] => isArrayOf(x, isString));
const isLedgerFact = (v: unknown): v is LedgerFact =>
  isRecord(v) &&
  oneOf(FACT_KINDS)(v.kind) &&
  isString(v.key) &&
  isString(v.line) &&
  isString(v.messageId) &&
  isNumber(v.score) &&
  isNumber(v.at);

const isPinnedEntry = (v: unknown): v is PinnedEntry =>
  isRecord(v) &&
  isString(v.itemId) &&
  oneOf(PINNED_KINDS)(v.kind) &&
  isString(v.messageId) &&
  optional(v.callId, isString) &&
  isString(v.label) &&
  isString(v.text) &&
  isNumber(v.tokens) &&
  isNumber(v.at);

const isIntent = (v: unknown): v is NonNullable<Ledger['intent']> =>
  isRecord(v) && isString(v.text) && isString(v.messageId) && isNumber(v.at);

const isNextStep = (v: unknown): v is NonNullable<Ledger['nextStep']> =>
  isRecord(v) && isString(v.text) && isSource(v.source) && isNumber(v.at);

/** True when `v` is a complete, well-formed ledger: every entry of every list is checked. */
export function isLedger(v: unknown): v is Ledger {
  return (
    isRecord(v) &&
    optional(v.instructions, (x): x is InstructionEntry[] => isArrayOf(x, isInstructionEntry)) &&
    optional(v.intent, isIntent) &&
    isArrayOf(v.goals, isGoal) &&
    isArrayOf(v.decisions, isDecision) &&
    isArrayOf(v.progress, isProgressMark) &&
    optional(v.nextStep, isNextStep) &&
    isArrayOf(v.artifacts, isString) &&
    isArrayOf(v.userMessages, isUserMessageEntry) &&
    isToolRecord(v.tools) &&
    (v.facts === undefined || isArrayOf(v.facts, isLedgerFact)) &&
    optional(v.pinned, (x): x is PinnedEntry[] => isArrayOf(x, isPinnedEntry))
  );
}
