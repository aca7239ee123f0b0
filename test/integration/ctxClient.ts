/**
 * Reaching ctx from the tests: its API, waiting for a condition, and asking @ctx through the real Chat view.
 * A module of its own, not a test file: a test file that imported another would run that file's tests too.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { page, selectors } from './page';
import * as standin from './standin';
import { patient } from './patience';

export const CTX_EXTENSION_ID = 'ctx-dev.ctx';

export interface CtxApi {
  readonly storageRoot: string;
  readonly activationMs: number;
  currentSessionId(): string | undefined;
  whenIdle(): Promise<void>;
  /** The dashboard's model of the current session (only what the tests read of it). */
  dashboardModel(): Promise<{ readonly sessionId: string; readonly title: string } | undefined>;
}

export async function ctxApi(): Promise<CtxApi> {
  const extension = vscode.extensions.getExtension<CtxApi>(CTX_EXTENSION_ID);
  assert.ok(extension, 'ctx is installed');
  return extension.activate();
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15000): Promise<T> {
  const until = Date.now() + patient(timeoutMs);
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Sends a query to @ctx through the real Chat view and waits (at most `timeoutMs`) until the stand-in has
 * answered `requests` more times.
 */
export async function askCtx(query: string, requestsExpected: number, timeoutMs = 15000): Promise<standin.RecordedRequest[]> {
  const api = await ctxApi();
  await api.whenIdle();
  const before = (await standin.requests()).length;
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@ctx ${query}` });
  const sent = await waitFor(
    `${requestsExpected} model requests for "${query}"`,
    async () => {
      const all = await standin.requests();
      return all.length >= before + requestsExpected ? all.slice(before) : undefined;
    },
    timeoutMs,
  );
  await api.whenIdle();
  return sent;
}

/** Sends @ctx a query that makes no model request (a slash command), and waits until it has answered. */
export async function commandCtx(query: string, answered: string | RegExp): Promise<void> {
  const api = await ctxApi();
  await api.whenIdle();
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@ctx ${query}` });
  await page.waitForText(selectors.chatResponses, answered, 20000);
  await api.whenIdle();
}
