/**
 * The registry of this workspace's sessions: opens and creates them over one store, keeps one
 * tokenizer per encoding, and knows which session is current (the one the status bar follows).
 * What happens in a session arrives as session events (`emit`, from the turn and from the commands);
 * the figures the UI shows are kept from them by `SessionActivities`.
 */
import * as vscode from 'vscode';
import { errorMessage, renderStatusReport } from '../engine/host/display';
import { type CallerFiles, type Logger, type Store, systemClock, type TokenCounter, type WorkspaceFiles } from '../engine/host/ports';
import {
  AnswerActivity,
  budgetFor,
  type CompressionRecord,
  ContextSession,
  contextStatus,
  type ContextStatus,
  Emitter,
  measureReported,
  type Peak,
  type PreparedContext,
  SessionActivities,
  type SessionEvent,
} from '../engine/host/session';
import type { EngineOptions } from '../engine/host/settings';
import { isSessionId, peekSessionState, SESSIONS_FOLDER } from '../engine/host/storage';
import type { CtxConfig } from './config';
import { EncodingCounters } from './encodingCounters';
import { SessionLocks, type HeldLock } from './sessionLocks';

/** The figure used for a session's budget before any model has been seen (a common 128K window). */
export const FALLBACK_MAX_INPUT_TOKENS = 128_000;

/** A session as the UI sees it: the session and the last figures measured for it. */
export interface SessionView {
  readonly session: ContextSession;
  readonly last?: PreparedContext;
  /** The model last used with it, for its reliability score. */
  readonly model?: string;
  /** The highest point the context reached in the current or last answer. */
  readonly answerPeak?: Peak;
  readonly lastCompression?: CompressionRecord;
  /** What is being compressed right now, while a compression runs. */
  readonly compressing?: string;
}

export interface StoredSessionSummary {
  readonly id: string;
  readonly title: string;
  readonly updatedAt: number;
}

export interface SessionManagerDeps {
  readonly store: Store;
  readonly files: WorkspaceFiles;
  /** Where the results a caller wrote to files are read from (Copilot's large tool results). */
  readonly callerFiles?: CallerFiles;
  readonly logger: Logger;
  readonly workerPath: string;
  readonly config: () => CtxConfig;
  /** What is off because the workspace is not trusted, for the status report. */
  readonly restrictedMode?: () => readonly string[];
}

export class SessionManager implements vscode.Disposable {
  private readonly open = new Map<string, { session: ContextSession; subscription: vscode.Disposable; lock?: HeldLock }>();
  private readonly locks: SessionLocks;
  private readonly events = new Emitter<SessionEvent>();
  private readonly activities = new SessionActivities();
  private readonly counters: EncodingCounters;
  private currentId: string | undefined;
  /** A fresh session waiting for the first request of a new chat. */
  private pendingFreshId: string | undefined;
  private readonly models = new Map<string, string>();
  private runningTurns = 0;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly changeEmitter = new Emitter<void>();
  /** Fires when the current session changes or anything in an open session does. */
  readonly onDidChange = this.changeEmitter.event;
  /** What happens in any session, as it happens. */
  readonly onDidEmit = this.events.event;
  /** Emits a session event (the turn and the commands report what they did through it). */
  readonly emit = (e: SessionEvent): void => this.events.fire(e);

  constructor(private readonly deps: SessionManagerDeps) {
    this.locks = new SessionLocks(deps.store, deps.logger);
    this.counters = new EncodingCounters(deps);
    this.events.event((e) => this.activities.take(e));
    this.activities.onDidChange(() => this.changeEmitter.fire());
  }

  get store(): Store {
    return this.deps.store;
  }

  /** The session the status bar and the commands act on, if any. */
  get current(): SessionView | undefined {
    const entry = this.currentId ? this.open.get(this.currentId) : undefined;
    if (!entry) return undefined;
    const id = entry.session.id;
    const activity = this.activities.of(id);
    const peak = activity.answer?.peak;
    return {
      session: entry.session,
      last: activity.last,
      model: this.models.get(id),
      ...(peak ? { answerPeak: peak } : {}),
      ...(activity.lastCompression ? { lastCompression: activity.lastCompression } : {}),
      ...(activity.compressing ? { compressing: activity.compressing } : {}),
    };
  }

  /** The session named by a previous turn, or a new one when the id is unknown or its files are gone. */
  async resume(id: string | undefined, model?: string): Promise<ContextSession> {
    const session = await this.find(id, model);
    if (model) this.models.set(session.id, model);
    return this.makeCurrent(session);
  }

  /**
   * Starts a fresh session from a session's ledger and checkpoints; the next @ctx request that
   * belongs to no session (a new chat) continues in it.
   */
  async startFresh(parent: ContextSession): Promise<ContextSession> {
    const fresh = await this.track(ContextSession.createFresh(parent, this.options(), this.sessionDeps(this.models.get(parent.id))));
    await fresh.save();
    this.pendingFreshId = fresh.id;
    const model = this.models.get(parent.id);
    if (model) this.models.set(fresh.id, model);
    this.makeCurrent(fresh);
    await measureReported(this.emit, fresh, this.lastBudget(parent));
    return fresh;
  }

  /** A new session, shown and stored like @ctx sessions; it becomes current when it is followed. */
  async create(model?: string): Promise<ContextSession> {
    const session = await this.track(ContextSession.create(this.options(), this.sessionDeps(model)));
    if (model) this.models.set(session.id, model);
    return session;
  }

  /** Makes a session current, remembering the model used with it (ctx's models do this on every request). */
  follow(session: ContextSession, model?: string): void {
    if (model) this.models.set(session.id, model);
    this.makeCurrent(session);
  }

  /** The model last used with a session, for its reliability score. */
  modelOf(session: ContextSession): string | undefined {
    return this.models.get(session.id);
  }

  private async find(id: string | undefined, model: string | undefined): Promise<ContextSession> {
    if (id && isSessionId(id)) {
      const known = this.open.get(id)?.session ?? (await this.load(id, model));
      if (known) return known;
    }
    const pending = this.pendingFreshId ? this.open.get(this.pendingFreshId)?.session : undefined;
    this.pendingFreshId = undefined;
    return pending ?? (await this.track(ContextSession.create(this.options(), this.sessionDeps(model))));
  }

  /**
   * Makes the most recently updated stored session current and measures it, so the status bar and
   * the tree show where the work stopped after a reload. Runs after activation, never during it.
   */
  async restoreLatest(): Promise<void> {
    if (this.currentId) return;
    const [latest] = await this.list();
    if (!latest) return;
    const session = await this.get(latest.id);
    if (!session || this.currentId) return;
    this.makeCurrent(session);
    await measureReported(this.emit, session, this.lastBudget(session));
  }

  /** Opens a stored session by id without making it current. */
  async get(id: string): Promise<ContextSession | undefined> {
    return this.open.get(id)?.session ?? (await this.load(id));
  }

  /** Runs an @ctx turn, counted so that others can wait until no turn is running. */
  async trackTurn<T>(turn: () => Promise<T>): Promise<T> {
    this.runningTurns++;
    try {
      return await turn();
    } finally {
      if (--this.runningTurns === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
    }
  }

  /** Resolves when no @ctx turn is running. */
  whenIdle(): Promise<void> {
    return this.runningTurns === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Starts an answer: what ctx does from now on is gathered in the returned activity (its summary goes
   * into the chat at the end), and its peak replaces the last answer's in the status bar.
   */
  startAnswer(session: ContextSession): AnswerActivity {
    const answer = new AnswerActivity();
    this.emit({ kind: 'answerStarted', session, answer });
    return answer;
  }

  /** The budget for a model, from its window or the settings' override, less the answer reserve. */
  budgetFor(maxInputTokens: number | undefined): number {
    const c = this.deps.config();
    return budgetFor({
      maxInputTokens: maxInputTokens ?? FALLBACK_MAX_INPUT_TOKENS,
      answerReserveTokens: c.answerReserveTokens,
      maxInputTokensOverride: c.maxInputTokensOverride,
      ceilingTokens: c.budgetCeilingTokens,
    });
  }

  /** The budget last used for a session (or the fallback window's). */
  lastBudget(session: ContextSession): number {
    return this.activities.of(session.id).last?.budget ?? this.budgetFor(undefined);
  }

  /** The status report for a session, measured now. */
  async status(session: ContextSession): Promise<ContextStatus> {
    const measured = await session.measure(this.lastBudget(session));
    const snapshots = await session.listSnapshots().catch(() => []);
    return contextStatus({
      state: session.state,
      tokens: measured.tokens,
      budget: measured.budget,
      estimated: measured.estimated,
      thresholds: this.deps.config().engine.thresholds,
      warnings: session.warnings.map((w) => w.message),
      now: Date.now(),
      reliability: session.reliability(this.models.get(session.id)),
      snapshots: snapshots.length,
      backgroundCheckpoint: session.backgroundCheckpointState,
      lastAnswerPeak: this.activities.of(session.id).answer?.peak,
      lastCompression: this.activities.of(session.id).lastCompression,
      restrictedMode: this.deps.restrictedMode?.(),
      earlierTokens: measured.needed.earlier.tokens,
    });
  }

  async report(session: ContextSession): Promise<string> {
    return renderStatusReport(await this.status(session));
  }

  /** Stored sessions, newest first. Unreadable ones are listed by id so they can still be cleared. */
  async list(): Promise<StoredSessionSummary[]> {
    const ids = (await this.deps.store.list(SESSIONS_FOLDER)).filter(isSessionId);
    const summaries = await Promise.all(
      ids.map(async (id) => {
        const open = this.open.get(id)?.session;
        if (open) return { id, title: open.title, updatedAt: open.state.updatedAt };
        const state = await peekSessionState(this.deps.store, id, systemClock);
        return { id, title: state?.title ?? '', updatedAt: state?.updatedAt ?? 0 };
      }),
    );
    return summaries.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Deletes a session's files (archive included) and forgets it. */
  async clear(id: string): Promise<void> {
    const entry = this.open.get(id);
    entry?.subscription.dispose();
    entry?.session.dispose();
    await entry?.lock?.release();
    this.open.delete(id);
    this.activities.forget(id);
    if (this.currentId === id) this.currentId = undefined;
    if (this.pendingFreshId === id) this.pendingFreshId = undefined;
    await this.deps.store.remove(`${SESSIONS_FOLDER}/${id}`);
    this.changeEmitter.fire();
  }

  /** The counter for a model's encoding; one tokenizer (one worker) per encoding. */
  counterFor(model: string | undefined): TokenCounter {
    return this.counters.counterFor(model);
  }

  dispose(): void {
    for (const { session, subscription, lock } of this.open.values()) {
      subscription.dispose();
      session.dispose();
      void lock?.release();
    }
    this.open.clear();
    this.counters.dispose();
    this.events.dispose();
    this.activities.dispose();
    this.changeEmitter.dispose();
  }

  /** Opens a stored session this window may write; undefined when it cannot be read or another window writes it. */
  private async load(id: string, model?: string): Promise<ContextSession | undefined> {
    const lock = await this.locks.take(id);
    if (lock === 'refused') return undefined;
    const session = await ContextSession.open(id, this.options(), this.sessionDeps(model)).catch((e: unknown) => {
      this.deps.logger.error(`Could not open session ${id}: ${errorMessage(e)}`);
      return undefined;
    });
    if (!session) {
      await lock?.release();
      return undefined;
    }
    return this.track(session, lock);
  }

  private async track(session: ContextSession, held?: HeldLock): Promise<ContextSession> {
    const lock = held ?? (await this.locks.take(session.id));
    const subscription = session.onDidChange(() => this.changeEmitter.fire());
    this.open.set(session.id, { session, subscription, ...(lock && lock !== 'refused' ? { lock } : {}) });
    return session;
  }

  private makeCurrent(session: ContextSession): ContextSession {
    if (this.currentId !== session.id) {
      this.currentId = session.id;
      this.changeEmitter.fire();
    }
    return session;
  }

  private options(): EngineOptions {
    return this.deps.config().engine;
  }

  private sessionDeps(model: string | undefined) {
    return {
      store: this.deps.store,
      counter: this.counterFor(model),
      files: this.deps.files,
      logger: this.deps.logger,
      clock: systemClock,
      ...(this.deps.callerFiles ? { callerFiles: this.deps.callerFiles } : {}),
    };
  }
}
