/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The dashboard's script, inside the webview (bundled on its own for the browser). The extension
 * renders and escapes every part of the page; this script only puts the parts that changed in
 * place (keeping the focus where it was), says what a bar part holds on hover and focus, lets the
 * arrow keys move along the bar, and sends what the user did back to the extension.
 */
import type { HostMessage, WebviewMessage } from '../vscode/dashboard/dashboardProtocol';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

/** The element that had the focus, by the key it carries across re-renders. */
function focusKey(): string | undefined {
  const active = document.activeElement;
  return active instanceof Element ? (active.closest('[data-focus]')?.getAttribute('data-focus') ?? undefined) : undefined;
}

function restoreFocus(key: string | undefined): void {
  if (!key) return;
  const target = [...document.querySelectorAll('[data-focus]')].find((e) => e.getAttribute('data-focus') === key);
  if (target instanceof HTMLElement || target instanceof SVGElement) target.focus();
}

function replaceSections(sections: Partial<Record<string, string>>): void {
  const key = focusKey();
  for (const [id, html] of Object.entries(sections)) {
    const section = document.getElementById(id);
    if (section && html !== undefined) section.innerHTML = html;
  }
  restoreFocus(key);
  // An opened preview takes the focus; a closed one gives it back to the button that opens it.
  if (sections.preview) {
    // Its figures first in view, the focus on its first button.
    document.getElementById('preview')?.scrollIntoView({ block: 'start' });
    document
      .querySelector<HTMLElement>('#preview [data-focus="preview-apply"], #preview [data-focus="preview-cancel"]')
      ?.focus({ preventScroll: true });
  } else if (sections.preview === '' && key?.startsWith('preview-')) {
    document.querySelector<HTMLElement>('[data-focus="preview"]')?.focus();
  }
}

function showTip(target: Element | null): void {
  const tip = document.getElementById('tip');
  const text = target?.closest('[data-tip]')?.getAttribute('data-tip');
  if (!tip) return;
  tip.textContent = text ?? '';
  tip.classList.toggle('shown', Boolean(text));
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (message.type === 'sections') replaceSections(message.sections);
  else if (message.type === 'notice') {
    const notice = document.getElementById('notice');
    if (notice) notice.textContent = message.text;
  }
});

document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-action]') : null;
  if (!button || button.hasAttribute('disabled')) return;
  const action = button.getAttribute('data-action');
  const item = button.getAttribute('data-item') ?? undefined;
  if (action) vscode.postMessage({ type: 'action', action, ...(item ? { item } : {}) } as WebviewMessage);
});

document.addEventListener('mouseover', (event) => showTip(event.target instanceof Element ? event.target : null));
document.addEventListener('focusin', (event) => showTip(event.target instanceof Element ? event.target : null));

document.addEventListener('keydown', (event) => {
  const part = event.target instanceof Element ? event.target.closest('.bar [tabindex]') : null;
  if (!part || (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft' && event.key !== 'Home' && event.key !== 'End')) return;
  const parts = [...document.querySelectorAll<SVGElement>('.bar [tabindex]')];
  const at = parts.indexOf(part as SVGElement);
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? parts.length - 1
        : Math.min(parts.length - 1, Math.max(0, at + (event.key === 'ArrowRight' ? 1 : -1)));
  parts[next]?.focus();
  event.preventDefault();
});

requestAnimationFrame(() => requestAnimationFrame(() => vscode.postMessage({ type: 'painted', ms: performance.now() })));
