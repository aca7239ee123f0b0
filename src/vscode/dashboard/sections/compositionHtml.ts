/**
 * The composition bar: the budget's parts side by side, then the free space, then, apart, the
 * answer reserve (reserved, never used), with the level thresholds marked. An SVG whose parts can be
 * focused and hovered (each names its tokens and share), and the same figures as a table.
 */
import { type Composition, type CompositionPart, formatCount } from '../../../engine/host/display';
import { escapeHtml, levelBadge, percent, svgPercent, tableHead } from '../html';

/** Share of the bar's width left empty between the budget and the reserve. */
const RESERVE_GAP = 0.01;

/** The diagonal hatching that fills the answer reserve (the stylesheet's `url(#hatch)`). */
const HATCH_DEFS = [
  '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">',
  '<line class="hatch" x1="0" y1="0" x2="0" y2="6"/></pattern></defs>',
].join('');

const LEGEND_HEAD = tableHead([{ title: 'Part' }, { title: 'Tokens', numeric: true }, { title: 'Share of the budget', numeric: true }]);

/** What a part's hover and focus say. */
export function partTip(label: string, tokens: number, share: number): string {
  return `${label}: ${formatCount(tokens)} tokens, ${percent(share)} of the budget`;
}

export function compositionHtml(c: Composition): string {
  const scale = c.reserve > 0 ? (1 - RESERVE_GAP) * (c.budget / (c.budget + c.reserve)) : 1;
  const segments: string[] = [];
  let x = 0;
  const overBudget = c.used > c.budget;
  const fit = overBudget ? c.budget / c.used : 1;
  for (const p of c.parts) {
    segments.push(segment(p, x * scale, p.share * fit * scale));
    x += p.share * fit;
  }
  if (c.free > 0) {
    const share = c.free / c.budget;
    const tip = `Free: ${formatCount(c.free)} tokens, ${percent(share)} of the budget`;
    segments.push(rect('part free', x * scale, share * scale, tip, 'free'));
  }
  const reserveX = scale + (c.reserve > 0 ? RESERVE_GAP : 0);
  const reserveTip = `Answer reserve: ${formatCount(c.reserve)} tokens kept for the model's answer, beside the budget, never used by the context`;
  const reserve = c.reserve > 0 ? rect('reserve', reserveX, 1 - reserveX, reserveTip, 'reserve') : '';
  const marks = c.thresholds.map((t) => {
    const at = svgPercent(t.share * scale);
    const tip = `${t.level} from ${percent(t.share)} (${formatCount(t.tokens)} tokens)`;
    return `<line class="mark mark-${t.level.toLowerCase()}" x1="${at}" x2="${at}" y1="0" y2="36"><title>${escapeHtml(tip)}</title></line>`;
  });
  const reserved = `${formatCount(c.reserve)} reserved for the answer, apart${overBudget ? ' · <strong>over the budget</strong>' : ''}`;
  const labels = c.thresholds.map(
    (t) => `<text class="mark-label mark-${t.level.toLowerCase()}" x="${svgPercent(t.share * scale)}" y="50">${t.level}</text>`,
  );
  return [
    `<h2 id="composition-title">Budget: ${formatCount(c.used)} of ${formatCount(c.budget)} tokens used${c.estimated ? ' (estimated)' : ''}</h2>`,
    `<p class="summary">${percent(c.usage)} used · ${levelBadge(c.level)} · ${formatCount(c.free)} free · ${reserved}</p>`,
    `<svg class="bar" width="100%" height="56" role="group" aria-label="Composition of the budget: use the arrow keys to go through its parts">`,
    HATCH_DEFS,
    ...segments,
    reserve,
    ...marks,
    ...labels,
    `</svg>`,
    `<div id="tip" class="tip" role="status" aria-live="polite"></div>`,
    legend(c),
  ].join('');
}

function segment(p: CompositionPart, x: number, width: number): string {
  return rect(`part group-${p.group} key-${p.key}`, x, width, partTip(p.label, p.tokens, p.share), p.key);
}

function rect(cls: string, x: number, width: number, tip: string, key: string): string {
  const label = escapeHtml(tip);
  const box = `x="${svgPercent(x)}" y="4" width="${svgPercent(width)}" height="28"`;
  const named = `tabindex="0" role="img" aria-label="${label}" data-tip="${label}" data-focus="part-${key}"`;
  return `<rect class="${cls}" ${box} ${named}><title>${label}</title></rect>`;
}

function legend(c: Composition): string {
  const rows = c.parts.map((p) =>
    legendRow(undefined, `part group-${p.group} key-${p.key}`, escapeHtml(p.label), formatCount(p.tokens), percent(p.share)),
  );
  rows.push(legendRow('free-row', 'part free', 'Free', formatCount(c.free), percent(c.free / c.budget)));
  rows.push(legendRow('reserve-row', 'reserve', 'Answer reserve (apart, not used)', formatCount(c.reserve), '—'));
  return `<details class="legend" open><summary>Parts of the budget</summary><table>${LEGEND_HEAD}<tbody>${rows.join('')}</tbody></table></details>`;
}

/** A legend row: a swatch drawn like its part of the bar, the part's name, its tokens and its share. */
function legendRow(rowClass: string | undefined, swatchClass: string, name: string, tokens: string, share: string): string {
  const swatch = `<svg class="swatch" width="12" height="12" aria-hidden="true"><rect class="${swatchClass}" width="12" height="12"/></svg>`;
  const row = rowClass === undefined ? '<tr>' : `<tr class="${rowClass}">`;
  return `${row}<td>${swatch}${name}</td><td class="num">${tokens}</td><td class="num">${share}</td></tr>`;
}
