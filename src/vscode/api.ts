/** What ctx offers other extensions (and its own integration tests) through `extension.exports`. */
import type { DashboardModel } from '../engine/host/display';
import { answerReserveBeside } from '../engine/host/settings';
import type { CtxConfig } from './config';
import type { Dashboard } from './dashboard/registerDashboard';
import type { SessionManager } from './sessions';

export interface CtxApi {
  /** The folder holding every session's state, archive and offloaded results. */
  readonly storageRoot: string;
  /** Main-thread time `activate()` took, in milliseconds (the tokenizer is built later, in a worker). */
  readonly activationMs: number;
  /** The id of the session the status bar follows, if any. */
  currentSessionId(): string | undefined;
  /** Resolves when no @ctx turn is running. */
  whenIdle(): Promise<void>;
  /** The engine's dashboard model of the current session, built now (what the dashboard shows once it updates). */
  dashboardModel(): Promise<DashboardModel | undefined>;
  /** Milliseconds from opening the dashboard to its first render painted in the webview, once it was. */
  dashboardFirstPaintMs(): number | undefined;
}

export interface ApiParts {
  readonly storageRoot: string;
  readonly sessions: SessionManager;
  readonly activationMs: number;
  readonly dashboard: Dashboard;
  readonly config: () => CtxConfig;
}

export function createApi({ storageRoot, sessions, activationMs, dashboard, config }: ApiParts): CtxApi {
  return {
    storageRoot,
    activationMs,
    currentSessionId: () => sessions.current?.session.id,
    whenIdle: () => sessions.whenIdle(),
    dashboardModel: async () => {
      const session = sessions.current?.session;
      if (!session) return undefined;
      const budget = sessions.lastBudget(session);
      return session.dashboard({ budget, reserveTokens: answerReserveBeside(budget, config().answerReserveTokens), itemLimit: 1_000 });
    },
    dashboardFirstPaintMs: () => dashboard.panel?.firstPaintMs,
  };
}
