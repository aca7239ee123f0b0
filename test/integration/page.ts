/**
 * Lets a test inside the extension host look at and act on the real workbench page. The host cannot reach
 * the browser, so each call writes a request file into the folder named by CTX_TEST_PAGE_CHANNEL; the
 * harness (test/vscode/pageChannel.js) performs it with playwright and writes the answer file.
 * What the host changes reaches the DOM a little later: prefer `waitForText` over `text` for assertions.
 */
import { patient } from './patience';
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** Selectors of workbench parts that tests often need. */
export const selectors = {
  statusBar: '#workbench\\.parts\\.statusbar',
  statusBarItems: '#workbench\\.parts\\.statusbar .statusbar-item',
  /** ctx's status-bar item (its id ends with the item's id, `ctx.level`). */
  ctxStatusBarItem: '#workbench\\.parts\\.statusbar .statusbar-item[id$="ctx.level"]',
  /** A hover (tooltip) the workbench shows. */
  hover: ':is(.workbench-hover, .monaco-hover)',
  activityBar: '#workbench\\.parts\\.activitybar',
  sideBar: '#workbench\\.parts\\.sidebar',
  auxiliaryBar: '#workbench\\.parts\\.auxiliarybar',
  /** The notifications center (see `notifications.ts`), and the toasts where they are drawn. */
  notifications: ':is(.notifications-center, .notifications-toasts)',
  quickInput: '.quick-input-widget',
  quickInputRows: '.quick-input-widget .monaco-list-row',
  /** The Chat view's request and response rows. */
  chatRequests: '.interactive-item-container.interactive-request',
  chatResponses: '.interactive-item-container.interactive-response',
  /** The Chat view's input editor. */
  chatInput: '.interactive-input-part .interactive-input-editor',
  /** A tool confirmation in the Chat view (VS Code 1.104 draws it with either of two widgets). */
  chatConfirmation: ':is(.chat-confirmation-widget, .chat-confirmation-widget2)',
} as const;

/**
 * The frames of ctx's webview panels, outermost first: VS Code puts a webview's page in an iframe
 * (`#active-frame`) inside the iframe it creates for the extension's webview.
 */
export const CTX_WEBVIEW_FRAMES: readonly string[] = ['iframe.webview[src*="extensionId=ctx-dev.ctx"]', 'iframe#active-frame'];

/** A page request that the harness could not perform, or that got no answer in time. */
export class PageRequestError extends Error {
  constructor(
    readonly op: string,
    readonly reason: string,
  ) {
    super(`page.${op}: ${reason}`);
    this.name = 'PageRequestError';
  }
}

/** What a test can do with the page. Every call has a bound; none waits forever. */
export interface PageClient {
  /** False when the tests run without the code-server harness (e.g. under @vscode/test-electron). */
  readonly available: boolean;
  /** innerText of every element matching the CSS selector (empty when none matches). */
  text(selector: string): Promise<string[]>;
  /** Waits until some element matching `selector` shows `text` (substring or RegExp); returns its innerText. */
  waitForText(selector: string, text: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Saves test-results/screenshots/<name>.png and returns its path. */
  screenshot(name: string): Promise<string>;
  /** Presses a key chord: "F1", "Control+Shift+P", "Enter", "Escape". */
  press(keys: string): Promise<void>;
  /** Types text into whatever has focus. */
  type(text: string): Promise<void>;
  /** Clicks the first element matching the selector. */
  click(selector: string, timeoutMs?: number): Promise<void>;
  /** Scrolls the first match into view with the mouse wheel over the list holding it (a row taller than its list, such as a long answer). */
  reveal(selector: string): Promise<void>;
  /** Moves the mouse over the first visible match (its hover, e.g. a status-bar tooltip, follows). */
  hover(selector: string): Promise<void>;
  /** The attribute of every element matching the selector (null where absent). */
  attribute(selector: string, name: string): Promise<(string | null)[]>;
  /** The computed style property (e.g. "background-color") of the first element matching the selector. */
  computedStyle(selector: string, property: string): Promise<string>;
  /** Evaluates a small JavaScript expression in the page; returns its JSON result. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** The same calls inside a frame: `frames` are iframe selectors, outermost first (press, type and screenshot stay page-wide). */
  within(frames: readonly string[]): PageClient;
}

/** How long the harness gets beyond a request's own time limit before the client gives up. */
const ANSWER_MARGIN_MS = 10000;
const DEFAULT_TIMEOUT_MS = 10000;
const POLL_MS = 20;

interface Answer {
  ok: boolean;
  value?: unknown;
  error?: string;
}

function isAnswer(value: unknown): value is Answer {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

/** Creates a client for the channel folder (default: CTX_TEST_PAGE_CHANNEL), acting in the page or in a frame of it. */
export function createPageClient(
  channelDir: string | undefined = process.env.CTX_TEST_PAGE_CHANNEL,
  frames: readonly string[] = [],
): PageClient {
  async function request<T>(op: string, params: Record<string, unknown>, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<T> {
    if (!channelDir) {
      throw new PageRequestError(op, 'no page channel: CTX_TEST_PAGE_CHANNEL is not set (run the tests through test/vscode/harness.js)');
    }
    timeoutMs = patient(timeoutMs);
    const id = randomUUID();
    const requestFile = path.join(channelDir, `req-${id}.json`);
    const answerFile = path.join(channelDir, `res-${id}.json`);
    fs.writeFileSync(`${requestFile}.tmp`, JSON.stringify({ op, ...params, timeoutMs, ...(frames.length > 0 ? { frames } : {}) }));
    fs.renameSync(`${requestFile}.tmp`, requestFile);
    const deadline = Date.now() + timeoutMs + ANSWER_MARGIN_MS;
    while (Date.now() < deadline) {
      if (fs.existsSync(answerFile)) {
        const answer: unknown = JSON.parse(fs.readFileSync(answerFile, 'utf8'));
        fs.rmSync(answerFile, { force: true });
        if (!isAnswer(answer)) throw new PageRequestError(op, `malformed answer ${JSON.stringify(answer)}`);
        if (!answer.ok) throw new PageRequestError(op, answer.error ?? 'failed');
        return answer.value as T;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    fs.rmSync(requestFile, { force: true });
    throw new PageRequestError(op, `no answer from the harness within ${timeoutMs + ANSWER_MARGIN_MS} ms`);
  }

  return {
    available: Boolean(channelDir),
    text: (selector) => request<string[]>('text', { selector }),
    waitForText: (selector, text, timeoutMs = DEFAULT_TIMEOUT_MS) =>
      request<string>(
        'waitForText',
        typeof text === 'string' ? { selector, text } : { selector, regex: { source: text.source, flags: text.flags } },
        timeoutMs,
      ),
    screenshot: (name) => request<string>('screenshot', { name }, 20000),
    press: (keys) => request<void>('press', { keys }),
    type: (text) => request<void>('type', { text }),
    click: (selector, timeoutMs = DEFAULT_TIMEOUT_MS) => request<void>('click', { selector }, timeoutMs),
    reveal: (selector) => request<void>('reveal', { selector }),
    hover: (selector) => request<void>('hover', { selector }),
    attribute: (selector, name) => request<(string | null)[]>('attribute', { selector, name }),
    computedStyle: async (selector, property) => {
      const values = await request<string[]>('style', { selector, property });
      if (values.length === 0) throw new PageRequestError('computedStyle', `no element matches ${selector}`);
      return values[0];
    },
    evaluate: <T>(expression: string) => request<T>('evaluate', { expression }),
    within: (inner) => createPageClient(channelDir, [...frames, ...inner]),
  };
}

/** The page of the current run. */
export const page: PageClient = createPageClient();
