/** A compression previewed: before and after, what each step would do, the new checkpoint's summary; Apply or Cancel. */
import { type CompressionPreview, type ContextFigures, EVENT_KIND_LABELS, formatCount } from '../../../engine/host/display';
import { escapeHtml, levelBadge, percent } from '../html';

/** What the preview part shows: nothing, the work under way, or the preview. */
export type PreviewState =
  { readonly kind: 'none' } | { readonly kind: 'busy' } | { readonly kind: 'ready'; readonly preview: CompressionPreview };

const PREVIEW_TITLE = '<h2 id="preview-title">Preview of the compression</h2>';
const CANCEL_BUTTON = '<button class="secondary" data-action="cancel" data-focus="preview-cancel">Cancel</button>';

export function previewHtml(state: PreviewState): string {
  if (state.kind === 'none') return '';
  if (state.kind === 'busy') {
    return [
      '<div class="preview-panel" role="region" aria-labelledby="preview-title" aria-busy="true">',
      PREVIEW_TITLE,
      '<p>Running the compression on a copy of the context; nothing changes until you apply it…</p>',
      `<p class="actions">${CANCEL_BUTTON}</p></div>`,
    ].join('');
  }
  const p = state.preview;
  const events = p.events
    .filter((e) => e.kind !== 'snapshot')
    .map((e) => `<li><strong>${escapeHtml(EVENT_KIND_LABELS[e.kind])}</strong>: ${escapeHtml(e.detail)}</li>`)
    .join('');
  const checkpoint = p.checkpoint
    ? newCheckpoint(p.checkpoint)
    : '<p>No checkpoint would be made: everything is among the latest messages kept intact.</p>';
  const aged =
    p.aged.length === 0
      ? ''
      : `<p>Older checkpoints aged: ${p.aged.map((c) => `${escapeHtml(c.range)} → ${formatCount(c.currentTokens)} tokens`).join('; ')}</p>`;
  const warnings =
    p.warnings.length === 0 ? '' : `<ul class="warnings">${p.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>`;
  const messages = `messages ${formatCount(p.messagesBefore)} → ${formatCount(p.messagesAfter)}`;
  const apply = `<button data-action="apply" data-item="${escapeHtml(p.id)}" data-focus="preview-apply">Apply</button>`;
  return `<div class="preview-panel" role="region" aria-labelledby="preview-title">${PREVIEW_TITLE}
<p class="before-after">What the next request needs. ${figures('Before', p.before)} → ${figures('after', p.after)} · ${messages}</p>${earlierLines(p)}
<ul class="events">${events}</ul>${checkpoint}${aged}${warnings}
<p class="actions">${apply}${CANCEL_BUTTON}</p></div>`;
}

/** The checkpoint the compression would make: its span, size and writer, then its summary in full. */
function newCheckpoint(c: NonNullable<CompressionPreview['checkpoint']>): string {
  const heading = `<h3>The new checkpoint: ${escapeHtml(c.range)}, ${formatCount(c.currentTokens)} tokens, by ${escapeHtml(c.summarizedBy)}</h3>`;
  return `${heading}<pre class="summary-text" tabindex="0" aria-label="The new checkpoint's summary">${escapeHtml(c.summary)}</pre>`;
}

function figures(label: string, f: ContextFigures): string {
  return `${label}: <strong>${formatCount(f.tokens)}</strong> tokens (${percent(f.usage)}, ${levelBadge(f.level)})`;
}

/** The earlier lines the compression would show in the room it frees, named apart from what the request needs. */
function earlierLines(p: CompressionPreview): string {
  if (p.earlierTokens <= 0) return '';
  return `<p>Of it, ${formatCount(p.earlierTokens)} tokens would be earlier lines, word for word, kept until the next compression.</p>`;
}
