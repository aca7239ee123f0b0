/** Each checkpoint: range and age, size against its target, what it stands for, the drift check's findings, recall; then the retired ones. */
import { type CheckpointCard, counted, formatCount, type RetiredCard } from '../../../engine/host/display';
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
  const ratio =
    c.tokens > 0 && c.tokens < c.originalTokens ? `${(c.originalTokens / c.tokens).toFixed(1)}× smaller` : 'no smaller than they were';
  const overTarget = Math.round(c.target * 1.25);
  const meterScale = `min="0" max="${Math.max(c.target * 2, c.tokens)}" low="${overTarget}" high="${overTarget}" optimum="${c.target}"`;
  const meter = `<meter ${meterScale} value="${c.tokens}" aria-label="Size against its target">${formatCount(c.tokens)}</meter>`;
  const size = `${meter} ${formatCount(c.tokens)} tokens for a target of ${formatCount(c.target)}`;
  const standsFor = `${counted(c.messages, 'message')}, ${formatCount(c.originalTokens)} tokens (${ratio})`;
  const aged = c.compressedAt !== undefined ? `, aged ${timeOfDay(c.compressedAt)}` : '';
  const made = `${timeOfDay(c.createdAt)}${aged} · compressed ${c.compressionCount}×`;
  const facts = [
    `<dl><dt>Stands for</dt><dd>${standsFor}</dd>`,
    `<dt>Written by</dt><dd>${escapeHtml(c.summarizedBy)}</dd>`,
    `<dt>Made</dt><dd>${made}</dd></dl>`,
  ].join('');
  const actions = [
    cardButton('open', 'Open', 'secondary', c.itemId, title),
    cardButton('drop', 'Drop', 'secondary danger', c.itemId, title),
  ];
  return `<article class="card" aria-label="${escapeHtml(title)}"><h3>${escapeHtml(title)}</h3>
<p>${size}</p>
${facts}
${drift}${recall}
<p class="actions">${actions.join('')}</p></article>`;
}

/** A button acting on the checkpoint's item, named after the action and the checkpoint. */
function cardButton(action: 'open' | 'drop', label: string, classes: string, itemId: string, title: string): string {
  const item = escapeHtml(itemId);
  const target = `data-action="${action}" data-item="${item}" data-focus="${action}:${item}"`;
  return `<button class="${classes}" ${target} aria-label="${escapeHtml(`${label}: ${title}`)}">${label}</button>`;
}

function retiredList(retired: readonly RetiredCard[]): string {
  if (retired.length === 0) return '';
  const items = retired
    .map((r) => {
      const how = r.reason === 'undone' ? 'undone' : 'dropped';
      return `<li>${escapeHtml(r.range)} · ${how} at ${timeOfDay(r.at)} · ${formatCount(r.tokens)} tokens by ${escapeHtml(r.summarizedBy)}</li>`;
    })
    .join('');
  const summary = `<summary>Undone and dropped checkpoints (${retired.length}), kept for search with /recover</summary>`;
  return `<details class="retired">${summary}<ul>${items}</ul></details>`;
}
