/** The page's header: the session, where the context stands, and the actions on the whole context. */
import { counted, type DashboardModel, formatCount } from '../../../engine/host/display';
import { escapeHtml, timeOfDay } from '../html';

export function headerHtml(m: DashboardModel, previewOpen: boolean): string {
  const preview = `<button data-action="preview" data-focus="preview"${previewOpen ? ' disabled' : ''}>Preview compression…</button>`;
  const compress = '<button class="secondary" data-action="compress" data-focus="compress">Compress now</button>';
  const warnings =
    m.warnings.length === 0
      ? ''
      : `<ul class="warnings">${m.warnings
          .slice(-3)
          .map((w) => `<li>${escapeHtml(w)}</li>`)
          .join('')}</ul>`;
  const checkpoints = counted(m.checkpoints.length, 'checkpoint');
  const cache = m.promptCache ? `\n<p class="summary">Prompt cache: ${escapeHtml(m.promptCache)}.</p>` : '';
  return `<h1>Context: ${escapeHtml(m.title || m.sessionId)}</h1>
<p class="summary">${formatCount(m.messages)} messages in the context · ${formatCount(m.archived)} in the archive · ${checkpoints}</p>${cache}
<p class="actions" role="toolbar" aria-label="Actions on the whole context">${preview}${compress}${undoButton(m.undo)}</p>${warnings}
${SERVED_NOTE}`;
}

/**
 * Which chats reach ctx: a user who picked a Copilot harness other than Local would otherwise look
 * here for a chat ctx never saw.
 */
const SERVED_NOTE =
  '<p class="hint">ctx manages <code>@ctx</code> chats and any chat on a "(ctx)" model: in Copilot\'s agent, the <b>Local</b> harness. ' +
  "Chats handed to the Copilot, Claude or Codex harness do not call VS Code's models and never reach ctx; " +
  '"Archive Copilot\'s history before it compacts" still archives Copilot\'s own history there.</p>';

/** Undo, naming the snapshot it would restore; disabled when there is no compression to undo. */
function undoButton(undo: DashboardModel['undo']): string {
  if (!undo) return `<button class="secondary" disabled title="No compression to undo">Undo last compression</button>`;
  const hint = `Restore "${undo.snapshotName}" (${timeOfDay(undo.at)}); what arrived since stays`;
  return `<button class="secondary" data-action="undo" data-focus="undo" title="${escapeHtml(hint)}">Undo last compression</button>`;
}

/** The header when there is no session to show. */
export function noSessionHtml(): string {
  const empty =
    'No ctx session yet. Ask @ctx something in the Chat view, or pick a "(ctx)" model (under "Other Models" in the model picker): ' +
    'this dashboard shows its context as it grows.';
  return `<h1>Context</h1><p class="empty">${empty}</p>\n${SERVED_NOTE}`;
}
