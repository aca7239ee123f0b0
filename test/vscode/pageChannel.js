// The harness side of the page channel: tests inside the extension host cannot reach the browser, so they
// write a request file into a folder (CTX_TEST_PAGE_CHANNEL) and the harness performs it with playwright.
//
// Protocol (all files JSON, written to `<name>.tmp` and renamed, so a reader never sees half a file):
//   request  <channel>/req-<id>.json  { op, ...params, timeoutMs? }   (<id>: [A-Za-z0-9-]+)
//   response <channel>/res-<id>.json  { id, ok: true, value } | { id, ok: false, error }   (written by the harness)
// ops:
//   text        { selector }                              -> string[]  innerText of every match
//   waitForText { selector, text | regex:{source,flags}, timeoutMs } -> string  the first matching innerText
//   screenshot  { name }                                  -> string    path of test-results/screenshots/<name>.png
//   press       { keys }                                  -> null      e.g. "F1", "Control+Shift+P", "Enter"
//   type        { text }                                  -> null      typed into whatever has focus
//   click       { selector }                              -> null      first visible match
//   reveal      { selector }                              -> null      wheels the list holding the first match until it is in view
//   attribute   { selector, name }                        -> (string|null)[]  of every match
//   style       { selector, property }                    -> string[]  computed style of every match
//   evaluate    { expression }                            -> any       JSON result of a JS expression in the page
// Any request may carry `frames`: a list of iframe selectors, outermost first (a webview is an iframe in an
// iframe); the request is then performed in that frame, waiting for it to appear within its time limit.
// Requests are performed one at a time, in the order their files appear.
'use strict';

const fs = require('fs');
const path = require('path');

const DEFAULT_TIMEOUT_MS = 10000;

function writeAtomic(file, value) {
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(value));
  fs.renameSync(`${file}.tmp`, file);
}

function safeName(name) {
  return (
    String(name)
      .replace(/[^\w.-]+/g, '_')
      .slice(0, 120) || 'screenshot'
  );
}

/** The frame a request names through `frames` (iframe selectors, outermost first), or the page's main frame. */
async function targetFrame(page, frames, timeout) {
  let frame = page.mainFrame();
  for (const selector of frames || []) {
    const element = await frame.waitForSelector(selector, { timeout, state: 'attached' });
    const inner = await element.contentFrame();
    if (!inner) throw new Error(`${selector} is not a frame`);
    frame = inner;
  }
  return frame;
}

/**
 * Scrolls `target` into the viewport of the workbench list (or scrollable area) that holds it, to the middle of
 * what the list shows below its sticky rows: natively first, then with the mouse wheel as a user would. Native
 * scrolling is not always enough: 1.139's Chat view scrolls itself and puts back a native scroll of its element,
 * so a click on a row taller than the list fails with "element is outside of the viewport", and its sticky rows
 * cover the list's top.
 */
async function reveal(page, target, timeout) {
  await target.waitFor({ state: 'attached', timeout });
  // Enough where the list follows a native scroll (1.104's Chat view); the wheel below does the rest.
  await target.scrollIntoViewIfNeeded({ timeout }).catch(() => undefined);
  const deadline = Date.now() + timeout;
  let lastTop;
  let stuck = 0;
  for (;;) {
    const { box, view } = await target.evaluate((el) => {
      const holder = el.closest('.monaco-list') || el.closest('.monaco-scrollable-element');
      const r = el.getBoundingClientRect();
      const v = holder ? holder.getBoundingClientRect() : { top: 0, bottom: window.innerHeight, left: 0, right: window.innerWidth };
      const sticky = holder && holder.querySelector('.monaco-tree-sticky-container');
      const top = sticky ? Math.max(v.top, sticky.getBoundingClientRect().bottom) : v.top;
      return { box: { top: r.top, bottom: r.bottom }, view: { top, bottom: v.bottom, left: v.left, right: v.right } };
    });
    if (box.top >= view.top && box.bottom <= view.bottom) return;
    stuck = box.top === lastTop ? stuck + 1 : 0;
    if (Date.now() > deadline || stuck >= 3) {
      const at = `it is at ${Math.round(box.top)}, the list shows ${Math.round(view.top)}–${Math.round(view.bottom)}`;
      throw new Error(`could not scroll the element into view (${at})`);
    }
    lastTop = box.top;
    await page.mouse.move((view.left + view.right) / 2, (view.top + view.bottom) / 2);
    await page.mouse.wheel(0, (box.top + box.bottom) / 2 - (view.top + view.bottom) / 2);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Performs one request on the playwright `page`. */
async function perform(page, request, screenshotDir) {
  const timeout = typeof request.timeoutMs === 'number' ? request.timeoutMs : DEFAULT_TIMEOUT_MS;
  const frame =
    request.op === 'screenshot' || request.op === 'press' || request.op === 'type'
      ? page
      : await targetFrame(page, request.frames, timeout);
  switch (request.op) {
    case 'text':
      return frame.locator(request.selector).allInnerTexts();
    case 'waitForText': {
      const matches = request.regex
        ? (t) => new RegExp(request.regex.source, request.regex.flags).test(t)
        : (t) => t.includes(request.text);
      const deadline = Date.now() + timeout;
      let seen = [];
      for (;;) {
        seen = await frame.locator(request.selector).allInnerTexts();
        const hit = seen.find(matches);
        if (hit !== undefined) return hit;
        if (Date.now() > deadline) {
          const wanted = request.regex ? `/${request.regex.source}/${request.regex.flags}` : JSON.stringify(request.text);
          const shown = seen.length ? seen.map((s) => JSON.stringify(s.slice(0, 200))).join(', ') : 'no element matched';
          throw new Error(`no element ${request.selector} showed ${wanted} within ${timeout} ms; last seen: ${shown}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    case 'screenshot': {
      fs.mkdirSync(screenshotDir, { recursive: true });
      const file = path.join(screenshotDir, `${safeName(request.name)}.png`);
      await page.screenshot({ path: file, timeout });
      return file;
    }
    case 'press':
      await page.keyboard.press(request.keys);
      return null;
    case 'type':
      await page.keyboard.type(request.text);
      return null;
    case 'click':
      // The first visible match: the workbench keeps hidden copies of some widgets (the Chat view's input
      // part also exists inside requests that can be edited).
      await frame.locator(request.selector).filter({ visible: true }).first().click({ timeout });
      return null;
    case 'reveal':
      await reveal(page, frame.locator(request.selector).first(), timeout);
      return null;
    case 'hover':
      // The first visible match, like click: hovers show the workbench's tooltips (status bar, tree).
      await page.locator(request.selector).filter({ visible: true }).first().hover({ timeout });
      return null;
    case 'attribute':
      return frame.locator(request.selector).evaluateAll((els, name) => els.map((el) => el.getAttribute(name)), request.name);
    case 'style':
      return frame
        .locator(request.selector)
        .evaluateAll((els, prop) => els.map((el) => getComputedStyle(el).getPropertyValue(prop)), request.property);
    case 'evaluate': {
      const value = await frame.evaluate(request.expression);
      return value === undefined ? null : value;
    }
    default:
      throw new Error(`unknown page request op ${JSON.stringify(request.op)}`);
  }
}

/**
 * The first line of a playwright error, and the last line of its call log: what the element was doing
 * when time ran out ("… intercepts pointer events", "element is not visible").
 */
function errorSummary(e) {
  const lines = String(e && e.message ? e.message : e)
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const callLog = lines.indexOf('Call log:');
  const lastStep = lines
    .slice(callLog + 1)
    .filter((l) => l.startsWith('- ') && !/^- (waiting \d+ms|retrying)/.test(l))
    .pop();
  return callLog >= 0 && lastStep ? `${lines[0]} (last: ${lastStep.slice(2)})` : lines[0];
}

/**
 * Watches `dir` for request files and answers them. Returns { stop() }. `log` receives one line per
 * request when verbose.
 */
function servePageChannel({ dir, page, screenshotDir, log = () => {} }) {
  fs.mkdirSync(dir, { recursive: true });
  let stopped = false;
  let busy = false;
  const tick = async () => {
    if (busy || stopped) return;
    busy = true;
    try {
      const requests = fs
        .readdirSync(dir)
        .filter((f) => f.startsWith('req-') && f.endsWith('.json'))
        .map((f) => ({ f, mtime: fs.statSync(path.join(dir, f)).mtimeMs }))
        .sort((a, b) => a.mtime - b.mtime || a.f.localeCompare(b.f));
      for (const { f } of requests) {
        if (stopped) break;
        const file = path.join(dir, f);
        const id = f.slice(4, -5);
        const started = Date.now();
        let request = {};
        let response;
        try {
          try {
            request = JSON.parse(fs.readFileSync(file, 'utf8'));
          } finally {
            fs.rmSync(file, { force: true });
          }
          response = { id, ok: true, value: await perform(page, request, screenshotDir) };
        } catch (e) {
          response = { id, ok: false, error: errorSummary(e) };
        }
        log(
          `page ${request.op} ${request.selector || request.keys || request.name || ''} -> ${response.ok ? 'ok' : response.error} (${Date.now() - started} ms)`,
        );
        writeAtomic(path.join(dir, `res-${id}.json`), response);
      }
    } catch (e) {
      log(`page channel error: ${e && e.message ? e.message : e}`);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(tick, 25);
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

module.exports = { servePageChannel };
