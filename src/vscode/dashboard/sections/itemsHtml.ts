/** The items of the context, largest first, each with its actions, as a table; "Show more" lists the next page. */
import type { ContextItem, ItemAction, ItemList } from '../../../engine/dashboard/contextItems';
import { formatCount } from '../../../engine/text/numbers';
import { escapeHtml, percent } from '../html';

const ACTION_LABELS: Readonly<Record<ItemAction, string>> = {
  open: 'Open',
  pin: 'Pin',
  unpin: 'Unpin',
  drop: 'Drop',
  offload: 'Offload now',
};

/** What each action does, said to whoever hovers or reads it. */
const ACTION_HINTS: Readonly<Record<ItemAction, string>> = {
  open: 'Open it read-only',
  pin: 'Keep it verbatim through every compression',
  unpin: 'Let compressions treat it like any other item again',
  drop: 'Take it out of the context; the archive keeps it and /recover finds it',
  offload: 'Write it to a file now and keep a preview in the context',
};

export function itemsHtml(list: ItemList, budget: number): string {
  const rows = list.items.map((item) => row(item, budget)).join('');
  const more =
    list.total > list.items.length
      ? `<p><button class="secondary" data-action="more" data-focus="items-more">Show more (${formatCount(list.total - list.items.length)} smaller items)</button></p>`
      : '';
  return [
    `<h2 id="items-title">Items in the context (${formatCount(list.total)})</h2>`,
    `<table class="items" aria-labelledby="items-title"><thead><tr><th scope="col">Item</th><th scope="col" class="num">Tokens</th><th scope="col" class="num">Share</th><th scope="col">Actions</th></tr></thead><tbody>${rows}</tbody></table>`,
    more,
  ].join('');
}

function row(item: ContextItem, budget: number): string {
  const flags = [item.pinned ? '<span class="flag">pinned</span>' : '', item.offloaded ? '<span class="flag">offloaded</span>' : ''].join(
    '',
  );
  const label = escapeHtml(item.label);
  const buttons = item.actions
    .map(
      (a) =>
        `<button class="${a === 'drop' ? 'secondary danger' : 'secondary'}" data-action="${a}" data-item="${escapeHtml(item.id)}" data-focus="${a}:${escapeHtml(item.id)}" title="${escapeHtml(ACTION_HINTS[a])}" aria-label="${escapeHtml(`${ACTION_LABELS[a]}: ${item.label}`)}">${ACTION_LABELS[a]}</button>`,
    )
    .join('');
  return `<tr data-item="${escapeHtml(item.id)}" class="kind-${item.kind}"><th scope="row"><span class="item-label">${label}</span>${flags}<span class="item-preview">${escapeHtml(item.preview)}</span></th><td class="num">${formatCount(item.tokens)}</td><td class="num">${percent(budget > 0 ? item.tokens / budget : 0)}</td><td class="actions">${buttons}</td></tr>`;
}
