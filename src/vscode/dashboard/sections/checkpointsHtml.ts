/** Each checkpoint: range and age, size against its target, what it stands for, the drift check's findings, recall; then the retired ones. */
import type { CheckpointCard, RetiredCard } from '../../../engine/dashboard/checkpointCards';
import { formatCount } from '../../../engine/text/numbers';
import { escapeHtml, timeOfDay } from '../html';

export function checkpointsHtml(cards: readonly CheckpointCard[], retired: readonly RetiredCard[]): string {
  const body =
    cards.length === 0
      ? '<p class="empty">No checkpoint yet: at RED, or when you compress, older messages are summarized into one.</p>'
      : `<div class="cards">${cards.map(card).join('')}</div>`;
  return [`<h2>Checkpoints (${cards.length})</h2>`, body, retiredList(retired)].join('');
}

function card(c: CheckpointCard): string {
  const title = `Checkpoint ${c.number} · ${c.ageLabel} · ${c.range}`;
  const drift =
    c.drift.length === 0
      ? '<p class="ok">Drift check: everything that must survive was found.</p>'
      : `<ul class="drift">${c.drift.map((d) => `<li>${timeOfDay(d.at)} · ${escapeHtml(d.detail)}</li>`).join('')}</ul>`;
  const recall =
    c.recall.length === 0
      ? ''
      : `<dl class="recall">${c.recall.map((r) => `<dt>${escapeHtml(r.label)}</dt><dd>${escapeHtml(r.value)}</dd>`).join('')}</dl>`;
  const ratio = c.tokens > 0 ? `${(c.originalTokens / c.tokens).toFixed(1)}×` : '—';
  return `<article class="card" aria-label="${escapeHtml(title)}"><h3>${escapeHtml(title)}</h3>
<p><meter min="0" max="${Math.max(c.target * 2, c.tokens)}" low="${Math.round(c.target * 1.25)}" high="${Math.round(c.target * 1.25)}" optimum="${c.target}" value="${c.tokens}" aria-label="Size against its target">${formatCount(c.tokens)}</meter> ${formatCount(c.tokens)} tokens for a target of ${formatCount(c.target)}</p>
<dl><dt>Stands for</dt><dd>${formatCount(c.messages)} messages, ${formatCount(c.originalTokens)} tokens (${ratio} smaller)</dd><dt>Written by</dt><dd>${escapeHtml(c.summarizedBy)}</dd><dt>Made</dt><dd>${timeOfDay(c.createdAt)}${c.compressedAt !== undefined ? `, aged ${timeOfDay(c.compressedAt)}` : ''} · compressed ${c.compressionCount}×</dd></dl>
${drift}${recall}
<p class="actions"><button class="secondary" data-action="open" data-item="${escapeHtml(c.itemId)}" data-focus="open:${escapeHtml(c.itemId)}" aria-label="${escapeHtml(`Open: ${title}`)}">Open</button><button class="secondary danger" data-action="drop" data-item="${escapeHtml(c.itemId)}" data-focus="drop:${escapeHtml(c.itemId)}" aria-label="${escapeHtml(`Drop: ${title}`)}">Drop</button></p></article>`;
}

function retiredList(retired: readonly RetiredCard[]): string {
  if (retired.length === 0) return '';
  const items = retired
    .map(
      (r) =>
        `<li>${escapeHtml(r.range)} · ${r.reason === 'undone' ? 'undone' : 'dropped'} at ${timeOfDay(r.at)} · ${formatCount(r.tokens)} tokens by ${escapeHtml(r.summarizedBy)}</li>`,
    )
    .join('');
  return `<details class="retired"><summary>Undone and dropped checkpoints (${retired.length}), kept for search with /recover</summary><ul>${items}</ul></details>`;
}
