/**
 * Where an importer puts what it reads: sessions of message drafts, warnings and counts. One sink
 * per import; `finish` pairs results with calls and produces the `ImportResult`.
 */
import type { Role } from '../../engine/host/messages';
import { isDateTime, MAX_TIME_MS } from './timestamps';
import { MalformedTranscriptError } from './importErrors';
import type { ImportedSession, ImportResult, ImportWarning, MalformedPolicy, TranscriptFormat } from './importTypes';
import type { DraftPart, MessageDraft } from './messageDraft';
import { pairToolResults } from './pairToolResults';

interface SessionDraft {
  readonly id: string;
  readonly sidechain: boolean;
  readonly drafts: MessageDraft[];
}

/** Session id used when a format has no session of its own. */
const DEFAULT_SESSION_ID = 'main';

/** Collects one import; importers call it in source order and never build `Message`s themselves. */
export class ImportSink {
  private readonly warnings: ImportWarning[] = [];
  private readonly sessions: SessionDraft[] = [];
  private readonly usedIds = new Set<string>();
  private readonly skippedByKind = new Map<string, number>();
  private records = 0;
  private skipped = 0;
  private thinkingBlocks = 0;
  private placeholders = 0;

  constructor(private readonly onMalformed: MalformedPolicy) {}

  /** Counts one source record read. */
  countRecord(): void {
    this.records++;
  }

  /** A record that becomes no message; `warning` is given when it carried model-visible content. */
  skip(kind: string, warning?: ImportWarning): void {
    this.skipped++;
    this.skippedByKind.set(kind, (this.skippedByKind.get(kind) ?? 0) + 1);
    if (warning !== undefined) this.warnings.push(warning);
  }

  /** An unreadable record: thrown under the `stop` policy, otherwise skipped with a warning. */
  malformed(reason: string, line?: number): void {
    if (this.onMalformed === 'stop') throw new MalformedTranscriptError(line, reason);
    this.skip('malformed', line === undefined ? { reason } : { line, reason });
  }

  dropThinking(count: number): void {
    this.thinkingBlocks += count;
  }

  /** Counts media that became a placeholder in the text. */
  countPlaceholders(count: number): void {
    this.placeholders += count;
  }

  warn(reason: string, line?: number): void {
    this.warnings.push(line === undefined ? { reason } : { line, reason });
  }

  /** Following messages belong to a new conversation. */
  beginSession(id: string, sidechain = false): void {
    this.sessions.push({ id, sidechain, drafts: [] });
  }

  /**
   * Adds the messages one source record becomes, in order, and returns their drafts. One part
   * keeps the source id; several get `#1`, `#2`… Parts without blocks are left out.
   */
  add(sourceId: string, parts: readonly DraftPart[], at?: number, line?: number): MessageDraft[] {
    const kept = parts.filter((part) => part.blocks.length > 0);
    return kept.map((part, index) => this.draft(kept.length === 1 ? sourceId : `${sourceId}#${index + 1}`, part.role, part, at, line));
  }

  /** Adds one message that may stay empty for now (blocks are appended to it later). */
  open(sourceId: string, role: Role, at?: number, line?: number): MessageDraft {
    return this.draft(sourceId, role, { role, blocks: [] }, at, line);
  }

  /** The most recent draft of the current session. */
  lastDraft(): MessageDraft | undefined {
    const drafts = this.currentSession().drafts;
    return drafts[drafts.length - 1];
  }

  finish(format: TranscriptFormat): ImportResult {
    if (this.sessions.length === 0) this.beginSession(DEFAULT_SESSION_ID);
    const sessions: ImportedSession[] = [];
    let toolCalls = 0;
    let toolResults = 0;
    let unpairedResults = 0;
    let unansweredCalls = 0;
    let injectedBlocks = 0;
    for (const session of this.sessions) {
      const outcome = pairToolResults(session.drafts);
      sessions.push({ id: session.id, sidechain: session.sidechain, messages: outcome.messages });
      this.warnings.push(...outcome.warnings);
      toolCalls += outcome.toolCalls;
      toolResults += outcome.toolResults;
      unpairedResults += outcome.unpairedResults;
      unansweredCalls += outcome.unansweredCalls;
      for (const msg of outcome.messages) injectedBlocks += msg.blocks.filter((b) => b.type === 'text' && b.injected === true).length;
    }
    return {
      format,
      messages: sessions[0].messages,
      sessions,
      warnings: this.warnings,
      stats: {
        records: this.records,
        skipped: this.skipped,
        skippedByKind: Object.fromEntries(this.skippedByKind),
        thinkingBlocks: this.thinkingBlocks,
        toolCalls,
        toolResults,
        unpairedResults,
        unansweredCalls,
        placeholders: this.placeholders,
        injectedBlocks,
      },
    };
  }

  private draft(wantedId: string, role: Role, part: DraftPart, time?: number, line?: number): MessageDraft {
    const at = this.checkedTime(wantedId, time, line);
    const id = this.uniqueId(wantedId, line);
    const draft: MessageDraft = {
      id,
      role,
      blocks: [...part.blocks],
      ...(at === undefined ? {} : { at }),
      ...(line === undefined ? {} : { line }),
    };
    this.currentSession().drafts.push(draft);
    return draft;
  }

  /**
   * A time no date can hold stops a strict import; otherwise the message is kept without it, with
   * a warning (file names and lists are made from times, and would fail later).
   */
  private checkedTime(sourceId: string, at: number | undefined, line?: number): number | undefined {
    if (at === undefined || isDateTime(at)) return at;
    const reason = `message ${sourceId} has the time ${at}, past the last date a computer calendar holds (${MAX_TIME_MS} ms after 1970, in the year 275760)`;
    if (this.onMalformed === 'stop') throw new MalformedTranscriptError(line, reason);
    this.warn(`${reason}; the message was kept without a time`, line);
    return undefined;
  }

  /** Sources repeat ids (a resumed session copies records); the model needs them unique. */
  private uniqueId(wanted: string, line?: number): string {
    let id = wanted;
    for (let n = 2; this.usedIds.has(id); n++) id = `${wanted}~${n}`;
    if (id !== wanted) this.warn(`message id ${wanted} repeats; renamed ${id}`, line);
    this.usedIds.add(id);
    return id;
  }

  private currentSession(): SessionDraft {
    if (this.sessions.length === 0) this.beginSession(DEFAULT_SESSION_ID);
    return this.sessions[this.sessions.length - 1];
  }
}
