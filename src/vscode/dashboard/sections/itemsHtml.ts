/** The items of the context, largest first, each with its actions, as a table; "Show more" lists the next page. */
import { type ContextItem, formatCount, type ItemAction, type ItemList } from '../../../engine/host/display';
import { escapeHtml, percent, tableHead } from '../html';

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

const ITEMS_HEAD = tableHead([
  { title: 'Item' },
  { title: 'Tokens', numeric: true },
  { title: 'Share', numeric: true },
  { title: 'Actions' },
]);

export function itemsHtml(list: ItemList, budget: number): string {
  const rows = list.items.map((item) => row(item, budget)).join('');
  const hidden = list.total - list.items.length;
  const more =
    hidden > 0
      ? `<p><button class="secondary" data-action="more" data-focus="items-more">Show more (${formatCount(hidden)} smaller items)</button></p>`
      : '';
  return [
    `<h2 id="items-title">Items in the context (${formatCount(list.total)})</h2>`,
    `<table class="items" aria-labelledby="items-title">${ITEMS_HEAD}<tbody>${rows}</tbody></table>`,
    more,
  ].join('');
}

function row(item: ContextItem, budget: number): string {
  const flags = [item.pinned ? '<span class="flag">pinned</span>' : '', item.offloaded ? '<span class="flag">offloaded</span>' : ''].join(
    '',
  );
  const label = escapeHtml(item.label);
  const buttons = item.actions.map((a) => actionButton(a, item)).join('');
  const name = `<th scope="row"><span class="item-label">${label}</span>${flags}<span class="item-preview">${escapeHtml(item.preview)}</span></th>`;
  const figures = `<td class="num">${formatCount(item.tokens)}</td><td class="num">${percent(budget > 0 ? item.tokens / budget : 0)}</td>`;
  return `<tr data-item="${escapeHtml(item.id)}" class="kind-${item.kind}">${name}${figures}<td class="actions">${buttons}</td></tr>`;
}

/** One action on an item: it says what it does on hover and names the item it acts on. */
function actionButton(a: ItemAction, item: ContextItem): string {
  const id = escapeHtml(item.id);
  const target = `data-action="${a}" data-item="${id}" data-focus="${a}:${id}"`;
  const words = `title="${escapeHtml(ACTION_HINTS[a])}" aria-label="${escapeHtml(`${ACTION_LABELS[a]}: ${item.label}`)}"`;
  return `<button class="${a === 'drop' ? 'secondary danger' : 'secondary'}" ${target} ${words}>${ACTION_LABELS[a]}</button>`;
}
