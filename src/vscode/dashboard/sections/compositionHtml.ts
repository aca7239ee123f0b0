/**
 * The composition bar: the budget's parts side by side, then the free space, then, apart, the
 * answer reserve (reserved, never used), with the level thresholds marked. An SVG whose parts can be
 * focused and hovered (each names its tokens and share), and the same figures as a table.
 */
import type { Composition, CompositionPart } from '../../../engine/dashboard/composition';
import { formatCount } from '../../../engine/text/numbers';
import { escapeHtml, percent, svgPercent } from '../html';

/** Share of the bar's width left empty between the budget and the reserve. */
const RESERVE_GAP = 0.01;

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
  const marks = c.thresholds.map(
    (t) =>
      `<line class="mark mark-${t.level.toLowerCase()}" x1="${svgPercent(t.share * scale)}" x2="${svgPercent(t.share * scale)}" y1="0" y2="36"><title>${escapeHtml(`${t.level} from ${percent(t.share)} (${formatCount(t.tokens)} tokens)`)}</title></line>`,
  );
  const labels = c.thresholds.map(
    (t) => `<text class="mark-label mark-${t.level.toLowerCase()}" x="${svgPercent(t.share * scale)}" y="50">${t.level}</text>`,
  );
  return [
    `<h2 id="composition-title">Budget: ${formatCount(c.used)} of ${formatCount(c.budget)} tokens used${c.estimated ? ' (estimated)' : ''}</h2>`,
    `<p class="summary">${percent(c.usage)} used · <span class="level level-${c.level.toLowerCase()}">${c.level}</span> · ${formatCount(c.free)} free · ${formatCount(c.reserve)} reserved for the answer, apart${overBudget ? ' · <strong>over the budget</strong>' : ''}</p>`,
    `<svg class="bar" width="100%" height="56" role="group" aria-label="Composition of the budget: use the arrow keys to go through its parts">`,
    `<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line class="hatch" x1="0" y1="0" x2="0" y2="6"/></pattern></defs>`,
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
  return `<rect class="${cls}" x="${svgPercent(x)}" y="4" width="${svgPercent(width)}" height="28" tabindex="0" role="img" aria-label="${label}" data-tip="${label}" data-focus="part-${key}"><title>${label}</title></rect>`;
}

function legend(c: Composition): string {
  const rows = c.parts.map(
    (p) =>
      `<tr><td><svg class="swatch" width="12" height="12" aria-hidden="true"><rect class="part group-${p.group} key-${p.key}" width="12" height="12"/></svg>${escapeHtml(p.label)}</td><td class="num">${formatCount(p.tokens)}</td><td class="num">${percent(p.share)}</td></tr>`,
  );
  rows.push(
    `<tr class="free-row"><td><svg class="swatch" width="12" height="12" aria-hidden="true"><rect class="part free" width="12" height="12"/></svg>Free</td><td class="num">${formatCount(c.free)}</td><td class="num">${percent(c.free / c.budget)}</td></tr>`,
  );
  rows.push(
    `<tr class="reserve-row"><td><svg class="swatch" width="12" height="12" aria-hidden="true"><rect class="reserve" width="12" height="12"/></svg>Answer reserve (apart, not used)</td><td class="num">${formatCount(c.reserve)}</td><td class="num">—</td></tr>`,
  );
  return `<details class="legend" open><summary>Parts of the budget</summary><table><thead><tr><th scope="col">Part</th><th scope="col" class="num">Tokens</th><th scope="col" class="num">Share of the budget</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>`;
}
