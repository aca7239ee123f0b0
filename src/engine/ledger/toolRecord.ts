/**
 * The tool record of the ledger, built from tool calls and their results only: which files were
 * read, created, edited or deleted, which commands ran and how they ended, which errors were hit
 * and whether a later call on the same command or file fixed them (`fixKeys.ts`).
 */
import { subjectKey } from './commandKey';
import { fixingKeys, waitingKeys } from './fixKeys';
import { outputGist } from './commandOutput';
import { errorSummary, printedBesides, type PrintedBesides } from './errorSummary';
import {
  EMPTY_LEDGER,
  type CommandRecord,
  type ErrorRecord,
  type FileAction,
  type FileRecord,
  type ToolRecord,
} from '../model/ledgerTypes';
import { inPlaceEdits } from './inPlaceEdits';
import { shellWrites } from './shellWrites';
import { searchedFor } from './callSubject';
import { classifyToolCall, type ToolActivity } from './toolActivity';
import { toolOutcome, type ToolOutcome } from './toolOutcome';
import { commandOutcome } from './commandOutcome';
import type { Message, ToolCallBlock, ToolResultBlock } from '../types';
import { withoutOutputNotice } from '../text/outputNotice';
import { withoutHostFrame } from '../text/hostFrame';
import { memoizeByObject } from '../memo';

/** An error message that names where it happened (a path, a `file:line`, a `(line,col)`), so the same message is the same error. */
const NAMES_A_PLACE = /[\w.-]\/[\w.-]|[\w-]\.[A-Za-z]{1,6}\b[:(]\d|:\d+:\d+/;

function sameErrorKey(e: ErrorRecord): string {
  return `${e.toolName}\u0000${e.summary}`;
}

/** What is read from a result's text, once per result block: aging summarizes the same ranges again. */
const otherOutcomeOf = memoizeByObject((result: ToolResultBlock) => toolOutcome(result, false));
const outputGists = new WeakMap<ToolResultBlock, { readonly gist: string | undefined }>();
/** What a command printed, without a host's record of the run or its note that the output went to a file; remembered by its result, which answers one call. */
function outputGistOf(result: ToolResultBlock, commands: readonly string[]): string | undefined {
  const known = outputGists.get(result);
  if (known) return known.gist;
  const gist = outputGist(withoutOutputNotice(withoutHostFrame(result.content), commands.join('\n')));
  outputGists.set(result, { gist });
  return gist;
}
/** A result's error summary, with what else its call printed (a result answers one call, so it is always the same). */
const errorSummaries = new WeakMap<ToolResultBlock, string>();
function errorSummaryOf(result: ToolResultBlock, printed: PrintedBesides): string {
  let summary = errorSummaries.get(result);
  if (summary === undefined) errorSummaries.set(result, (summary = errorSummary(result.content, printed)));
  return summary;
}
/** A result answers one call, always the same, so what the call did is remembered by its result. */
const activities = new WeakMap<ToolResultBlock, ToolActivity>();
function activityOf(call: ToolCallBlock, result: ToolResultBlock): ToolActivity {
  let activity = activities.get(result);
  if (!activity) activities.set(result, (activity = classifyToolCall(call, result)));
  return activity;
}

/**
 * The record keeps what the ledger can show, and no more: the ledger shows the newest entries that
 * fit its share of the budget (a quarter of it), so a long session's record would otherwise grow
 * without ever being shown, and cost time on every request. Older entries stay in the archive,
 * where the recovery search finds them.
 * The offloaded results listed are the newest; every file stays in the session's folder.
 * @default 400 commands, 300 files written (created, edited, deleted), 200 files only read, 200 errors, 100 offloaded results
 */
export const RECORD_LIMITS = { commands: 400, writtenFiles: 300, readFiles: 200, errors: 200, offloaded: 100 } as const;

/** The record within its limits: the newest entries of each kind, unfixed errors before fixed ones. */
export function boundedRecord(record: ToolRecord): ToolRecord {
  const { commands, files, errors, offloaded } = record;
  const written = files.filter((f) => f.actions.some((a) => a !== 'read'));
  const overFiles = written.length > RECORD_LIMITS.writtenFiles || files.length - written.length > RECORD_LIMITS.readFiles;
  const within =
    commands.length <= RECORD_LIMITS.commands &&
    errors.length <= RECORD_LIMITS.errors &&
    offloaded.length <= RECORD_LIMITS.offloaded &&
    !overFiles;
  if (within) return record;
  return {
    ...record,
    commands: commands.length > RECORD_LIMITS.commands ? commands.slice(commands.length - RECORD_LIMITS.commands) : commands,
    files: overFiles ? newestFiles(files) : files,
    errors: errors.length > RECORD_LIMITS.errors ? newestErrors(errors) : errors,
    offloaded: offloaded.length > RECORD_LIMITS.offloaded ? offloaded.slice(offloaded.length - RECORD_LIMITS.offloaded) : offloaded,
  };
}

/** The most recently touched files within the limits, written and read apart, in their order. */
function newestFiles(files: readonly FileRecord[]): FileRecord[] {
  const isWritten = (f: FileRecord) => f.actions.some((a) => a !== 'read');
  const newest = (xs: FileRecord[], n: number) => new Set([...xs].sort((a, b) => b.lastAt - a.lastAt).slice(0, n));
  const keep = new Set([
    ...newest(files.filter(isWritten), RECORD_LIMITS.writtenFiles),
    ...newest(
      files.filter((f) => !isWritten(f)),
      RECORD_LIMITS.readFiles,
    ),
  ]);
  return files.filter((f) => keep.has(f));
}

/** The newest errors within the limit: unfixed ones first, then the newest fixed ones, in their order. */
function newestErrors(errors: readonly ErrorRecord[]): ErrorRecord[] {
  const unfixed = errors.filter((e) => !e.fixed).length;
  let unfixedRoom = RECORD_LIMITS.errors;
  let fixedRoom = Math.max(0, RECORD_LIMITS.errors - unfixed);
  const kept: ErrorRecord[] = [];
  for (let i = errors.length - 1; i >= 0; i--) {
    const e = errors[i];
    if (e.fixed ? fixedRoom-- > 0 : unfixedRoom-- > 0) kept.push(e);
  }
  return kept.reverse();
}

/** Tool name recorded for a result whose call is unknown and that does not name its tool. */
const UNKNOWN_TOOL = 'unknown';

/**
 * Adds what the tool results in `messages` show to `base`. Each result's call is looked up in
 * `messages` first, then through `findCall` (calls from earlier batches). Results already in
 * `base` (same call id) are not counted twice. Times come from the result's message, else `at`.
 * Linear in the number of blocks.
 */
export function recordToolActivity(
  messages: readonly Message[],
  base: ToolRecord = EMPTY_LEDGER.tools,
  findCall?: (callId: string) => ToolCallBlock | undefined,
  at?: number,
): ToolRecord {
  const calls = new Map<string, ToolCallBlock>();
  for (const msg of messages) for (const block of msg.blocks) if (block.type === 'toolCall') calls.set(block.id, block);
  const builder = new ToolRecordBuilder(base);
  for (const msg of messages) {
    for (const block of msg.blocks) {
      if (block.type !== 'toolResult') continue;
      builder.add(block, calls.get(block.callId) ?? findCall?.(block.callId), msg.at ?? at ?? 0);
    }
  }
  return builder.build();
}

/**
 * The call ids a record has seen, kept for the record built from it next, which takes them over: a
 * long session's record is not gone through for them on every batch. They include calls whose
 * entries the limits dropped since, so a result recorded long ago is not recorded again.
 */
const seenCallIds = new WeakMap<ToolRecord, Set<string>>();

/**
 * Working copies of a record, made on the first change of each list, with the indexes that keep
 * each step constant-time, also made when first needed: a batch without tool results (most
 * messages of a conversation) gives the same record back, unchanged lists keep their identity,
 * and what is derived from them (the ledger's lines, the state journal's diff) is not done again.
 */
class ToolRecordBuilder {
  private files: FileRecord[] | undefined;
  private fileIndex: Map<string, number> | undefined;
  private commands: CommandRecord[] | undefined;
  private errors: ErrorRecord[] | undefined;
  /** Unfixed errors by subject key. */
  private unfixedIndex: Map<string, number[]> | undefined;
  private seenIds: Set<string> | undefined;

  constructor(private readonly base: ToolRecord) {}

  /** Call ids already recorded: handed on from record to record, built from the lists only when a record has none to hand on. */
  private get seen(): Set<string> {
    if (this.seenIds) return this.seenIds;
    const handedOn = seenCallIds.get(this.base);
    seenCallIds.delete(this.base);
    this.seenIds = handedOn ?? new Set<string>();
    if (handedOn) return this.seenIds;
    for (const f of this.base.files) this.seenIds.add(f.lastCallId);
    for (const c of this.base.commands) this.seenIds.add(c.callId);
    for (const e of this.base.errors) this.seenIds.add(e.callId);
    return this.seenIds;
  }

  private get fileList(): FileRecord[] {
    return (this.files ??= [...this.base.files]);
  }

  private get filesByPath(): Map<string, number> {
    return (this.fileIndex ??= new Map(this.base.files.map((f, i) => [f.path, i])));
  }

  private get commandList(): CommandRecord[] {
    return (this.commands ??= [...this.base.commands]);
  }

  private get errorList(): ErrorRecord[] {
    return (this.errors ??= [...this.base.errors]);
  }

  private get unfixed(): Map<string, number[]> {
    if (this.unfixedIndex) return this.unfixedIndex;
    this.unfixedIndex = new Map();
    this.base.errors.forEach((e, i) => {
      if (e.fixed) return;
      for (const key of e.waitsOn ?? (e.subject === undefined ? [] : [subjectKey(e.subject)])) this.watch(key, i);
    });
    return this.unfixedIndex;
  }

  add(result: ToolResultBlock, call: ToolCallBlock | undefined, at: number): void {
    if (this.seen.has(result.callId)) return;
    this.seen.add(result.callId);
    if (call === undefined) {
      if (result.isError) this.addError(result, result.toolName ?? UNKNOWN_TOOL, undefined, [], at);
      return;
    }
    const activity = activityOf(call, result);
    const outcome = activity.kind === 'command' ? commandOutcome(result, activity.commands) : otherOutcomeOf(result);
    if (activity.kind === 'command') this.addCommands(result, call, activity.commands, outcome, at);
    else if (activity.kind === 'file') this.addFileAction(result, call, activity, outcome, at);
    else if (!outcome.ok) {
      this.addError(result, call.name, undefined, waitingKeys(activity, call), at, searchedFor(call) !== undefined ? 'searchHits' : 'own');
    } else {
      this.addSearch(result, call, at);
      fixingKeys(activity, call).forEach((k) => this.fix(k, call.id, ''));
    }
  }

  /**
   * A search or a fetch that worked is recorded beside the commands, by what it looked for and what it found, as a
   * shell's `grep` or `curl` would be: what was already looked for stays known after its messages are summarized.
   */
  private addSearch(result: ToolResultBlock, call: ToolCallBlock, at: number): void {
    const searched = searchedFor(call);
    if (searched === undefined) return;
    const output = outputGistOf(result, []);
    this.commandList.push({ callId: call.id, command: searched, ok: true, at, search: true, ...(output === undefined ? {} : { output }) });
  }

  build(): ToolRecord {
    const unchanged = !this.files && !this.commands && !this.errors;
    const { files = this.base.files, commands = this.base.commands, errors = this.base.errors } = this;
    const record = unchanged ? this.base : boundedRecord({ files, commands, errors, offloaded: this.base.offloaded });
    // The empty record starts every session and every range: the ids one of them saw are no other's.
    if (this.seenIds && record !== EMPTY_LEDGER.tools) seenCallIds.set(record, this.seenIds);
    return record;
  }

  private addCommands(result: ToolResultBlock, call: ToolCallBlock, commands: readonly string[], outcome: ToolOutcome, at: number): void {
    // One call's output belongs to all its commands together; it is kept once, on the last.
    const output = outcome.ok ? outputGistOf(result, commands) : undefined;
    commands.forEach((command, i) => {
      const record: CommandRecord = { callId: call.id, command, ok: outcome.ok, at };
      const withExit = outcome.exitCode === undefined ? record : { ...record, exitCode: outcome.exitCode };
      this.commandList.push(output !== undefined && i === commands.length - 1 ? { ...withExit, output } : withExit);
    });
    // A file written from a here-document or edited in place is changed though what runs after it fails, unless the
    // output names it.
    const changed = (path: string) => outcome.ok || !result.content.includes(path);
    for (const write of commands.flatMap(shellWrites)) {
      if (changed(write.path)) this.touch(write.path, write.appended ? 'edited' : 'created', call.id, at);
    }
    for (const path of commands.flatMap(inPlaceEdits)) if (changed(path)) this.touch(path, 'edited', call.id, at);
    const subject = commands.join(' ; ');
    const activity: ToolActivity = { kind: 'command', commands };
    if (outcome.ok) fixingKeys(activity).forEach((k) => this.fix(k, call.id, commands[commands.length - 1] ?? ''));
    else this.addError(result, call.name, subject, waitingKeys(activity), at, printedBesides(commands));
  }

  private addFileAction(
    result: ToolResultBlock,
    call: ToolCallBlock,
    activity: Extract<ToolActivity, { kind: 'file' }>,
    outcome: ToolOutcome,
    at: number,
  ): void {
    if (!outcome.ok) {
      this.addError(result, call.name, activity.paths.join(', '), waitingKeys(activity), at);
      return;
    }
    activity.paths.forEach((path, i) => this.touch(path, activity.pathActions?.[i] ?? activity.action, call.id, at));
    fixingKeys(activity).forEach((k) => this.fix(k, call.id, ''));
  }

  /** Adds the action to the file's record; a write to a file already seen is an edit. */
  private touch(path: string, action: FileAction, callId: string, at: number): void {
    const files = this.fileList;
    const index = this.filesByPath.get(path);
    if (index === undefined) {
      this.filesByPath.set(path, files.length);
      files.push({ path, actions: [action], lastAt: at, lastCallId: callId });
      return;
    }
    const file = files[index];
    const known = file.actions.some((a) => a !== 'deleted');
    const effective: FileAction = action === 'created' && known ? 'edited' : action;
    const actions = file.actions.includes(effective) ? file.actions : [...file.actions, effective];
    const later = at >= file.lastAt;
    files[index] = { path, actions, lastAt: later ? at : file.lastAt, lastCallId: later ? callId : file.lastCallId };
  }

  private addError(
    result: ToolResultBlock,
    toolName: string,
    subject: string | undefined,
    keys: readonly string[],
    at: number,
    printed: PrintedBesides = 'own',
  ): void {
    const own = subject === undefined ? undefined : subjectKey(subject);
    const ownKeyOnly = keys.length === 0 ? own === undefined : keys.length === 1 && keys[0] === own;
    const waitsOn = ownKeyOnly ? {} : { waitsOn: keys };
    const record: ErrorRecord = {
      callId: result.callId,
      toolName,
      summary: errorSummaryOf(result, printed),
      at,
      ...waitsOn,
      fixed: false,
    };
    const errors = this.errorList;
    keys.forEach((k) => this.watch(k, errors.length));
    errors.push(subject === undefined ? record : { ...record, subject });
  }

  private watch(key: string, index: number): void {
    const unfixed = this.unfixed;
    const list = unfixed.get(key);
    if (list) list.push(index);
    else unfixed.set(key, [index]);
  }

  /** Marks every unfixed error on this subject as fixed by the call (`command` when it ran one, else ''). */
  private fix(key: string, callId: string, command: string): void {
    const list = this.unfixed.get(key);
    if (!list) return;
    this.unfixed.delete(key);
    const errors = this.errorList;
    const verdict = { fixed: true, fixedByCallId: callId, fixedBy: command } as const;
    const sameErrors = new Set<string>();
    for (const i of list) {
      if (errors[i].fixed) continue;
      errors[i] = { ...errors[i], ...verdict };
      if (NAMES_A_PLACE.test(errors[i].summary)) sameErrors.add(sameErrorKey(errors[i]));
    }
    if (sameErrors.size === 0) return;
    // One error has one verdict: another call that met it (the same tool, the same message naming the same place) is fixed too.
    errors.forEach((e, i) => {
      if (!e.fixed && sameErrors.has(sameErrorKey(e))) errors[i] = { ...e, ...verdict };
    });
  }
}
