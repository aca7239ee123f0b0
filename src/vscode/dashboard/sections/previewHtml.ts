/** A compression previewed: before and after, what each step would do, the new checkpoint's summary; Apply or Cancel. */
import type { CompressionPreview, ContextFigures } from '../../../engine/session/compressionPreview';
import { TIER_LABELS } from '../../../engine/compressionEvent';
import { formatCount } from '../../../engine/text/numbers';
import { escapeHtml, percent } from '../html';

/** What the preview part shows: nothing, the work under way, or the preview. */
export type PreviewState =
  { readonly kind: 'none' } | { readonly kind: 'busy' } | { readonly kind: 'ready'; readonly preview: CompressionPreview };

export function previewHtml(state: PreviewState): string {
  if (state.kind === 'none') return '';
  if (state.kind === 'busy') {
    return `<div class="preview-panel" role="region" aria-labelledby="preview-title" aria-busy="true"><h2 id="preview-title">Preview of the compression</h2><p>Running the compression on a copy of the context; nothing changes until you apply it…</p><p class="actions"><button class="secondary" data-action="cancel" data-focus="preview-cancel">Cancel</button></p></div>`;
  }
  const p = state.preview;
  const events = p.events
    .filter((e) => e.tier !== 'snapshot')
    .map((e) => `<li><strong>${escapeHtml(TIER_LABELS[e.tier])}</strong>: ${escapeHtml(e.detail)}</li>`)
    .join('');
  const checkpoint = p.checkpoint
    ? `<h3>The new checkpoint: ${escapeHtml(p.checkpoint.range)}, ${formatCount(p.checkpoint.currentTokens)} tokens, by ${escapeHtml(p.checkpoint.summarizedBy)}</h3><pre class="summary-text" tabindex="0" aria-label="The new checkpoint's summary">${escapeHtml(p.checkpoint.summary)}</pre>`
    : '<p>No checkpoint would be made: everything is among the latest messages kept intact.</p>';
  const aged =
    p.aged.length === 0
      ? ''
      : `<p>Older checkpoints aged: ${p.aged.map((c) => `${escapeHtml(c.range)} → ${formatCount(c.currentTokens)} tokens`).join('; ')}</p>`;
  const warnings =
    p.warnings.length === 0 ? '' : `<ul class="warnings">${p.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>`;
  return `<div class="preview-panel" role="region" aria-labelledby="preview-title"><h2 id="preview-title">Preview of the compression</h2>
<p class="before-after">${figures('Before', p.before)} → ${figures('after', p.after)} · messages ${formatCount(p.messagesBefore)} → ${formatCount(p.messagesAfter)}</p>
<ul class="events">${events}</ul>${checkpoint}${aged}${warnings}
<p class="actions"><button data-action="apply" data-item="${escapeHtml(p.id)}" data-focus="preview-apply">Apply</button><button class="secondary" data-action="cancel" data-focus="preview-cancel">Cancel</button></p></div>`;
}

function figures(label: string, f: ContextFigures): string {
  return `${label}: <strong>${formatCount(f.tokens)}</strong> tokens (${percent(f.usage)}, <span class="level level-${f.level.toLowerCase()}">${f.level}</span>)`;
}
