/**
 * The timeline: the context's tokens before (dashed) and after (solid) the steps of each request,
 * the part of what was sent that the request before sent the same (what a prompt cache reads),
 * the budget and the level thresholds, and a tick on each request that compressed, coloured by its
 * weightiest kind and naming them all. The drawing says in words what it shows; the compressions
 * are listed in a table too.
 */
import { type EventKind, formatCount, shortenEnd, type TimelineMarker, type TimelineModel } from '../../../engine/host/display';
import type { LevelThresholds } from '../../../engine/host/settings';
import { escapeHtml, tableHead } from '../html';

const WIDTH = 1000;
const HEIGHT = 200;
/** The drawing fills the page's width, stretched; its lines keep their width however it is stretched. */
const FRAME = `viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" width="100%" height="${HEIGHT}"`;
const UNSCALED_STROKE = 'vector-effect="non-scaling-stroke"';
/** Where a request's tick ends, rising from the bottom. */
const TICK_TOP = (HEIGHT * 0.55).toFixed(1);
/** What each line of the drawing is; the kinds of compression follow. */
const LINE_KEY = [
  '<span class="key-after">tokens sent</span>',
  '<span class="key-before">before the steps</span>',
  '<span class="key-budget">budget</span>',
].join('');
const REUSED_KEY = '<span class="key-reused">repeated from the request before</span>';
const COMPRESSIONS_HEAD = tableHead([
  { title: 'Request', numeric: true },
  { title: 'What' },
  { title: 'Tokens saved', numeric: true },
  { title: 'Detail' },
]);
/** Rows of the compressions table shown, the newest. */
const TABLE_ROWS = 50;
/** Characters of an event's words in the table. */
const ROW_DETAIL_CHARS = 240;
/** One tick a request, in the colour of its weightiest kind of compression (0 first); every kind is ranked. */
const KIND_RANK: Readonly<Record<EventKind, number>> = {
  critical: 0,
  checkpoint: 1,
  undo: 2,
  drift: 3,
  recall: 4,
  drop: 5,
  offload: 6,
  watermark: 7,
  truncate: 8,
  'compress-results': 9,
  age: 10,
  snapshot: 11,
};

export function timelineHtml(t: TimelineModel, thresholds: LevelThresholds, budget: number): string {
  if (t.points.length === 0) {
    return `<h2>Timeline</h2><p class="empty">No request yet: each request of this session will be drawn here, with every compression on it.</p>`;
  }
  const top = Math.max(t.maxTokens, budget, 1) * 1.05;
  const last = t.points[t.points.length - 1].request;
  const span = Math.max(1, last);
  const x = (request: number) => (((request - 0.5) / span) * WIDTH).toFixed(1);
  const y = (tokens: number) => (HEIGHT - (tokens / top) * HEIGHT).toFixed(1);
  const line = (pick: (p: TimelineModel['points'][number]) => number) => t.points.map((p) => `${x(p.request)},${y(pick(p))}`).join(' ');
  const levelLines = (['yellowAt', 'orangeAt', 'redAt', 'criticalAt'] as const).map((k) => {
    const at = y(thresholds[k] * budget);
    return `<line class="threshold threshold-${k.replace('At', '')}" x1="0" x2="${WIDTH}" y1="${at}" y2="${at}" ${UNSCALED_STROKE}/>`;
  });
  const ticks = [...byRequest(t.markers)].map(([request, markers]) => {
    const at = x(Math.min(request, span + 0.5));
    const kind = markers.reduce((a, b) => (KIND_RANK[b.kind] < KIND_RANK[a.kind] ? b : a)).kind;
    const tip = escapeHtml(tickWords(request, markers));
    return `<line class="tick kind-${kind}" x1="${at}" x2="${at}" y1="${HEIGHT}" y2="${TICK_TOP}" ${UNSCALED_STROKE}><title>${tip}</title></line>`;
  });
  const saved = t.markers.reduce((n, m) => n + m.savedTokens, 0);
  // Snapshots, checks and a checkpoint's closing line take nothing out: they are drawn, not counted.
  const compressions = t.markers.reduce((n, m) => n + m.compressions, 0);
  const lastPoint = t.points[t.points.length - 1];
  const sent = t.points.filter((p) => p.reused !== undefined);
  const sentTokens = sent.reduce((n, p) => n + p.after, 0);
  const reusedTokens = sent.reduce((n, p) => n + (p.reused ?? 0), 0);
  const cache =
    sentTokens > 0
      ? ` ${Math.round((100 * reusedTokens) / sentTokens)}% of what was sent repeated the request before (a prompt cache reads it).`
      : '';
  const description =
    `Context tokens over ${formatCount(t.requests)} requests, ` +
    `now ${formatCount(lastPoint.after)} of a budget of ${formatCount(lastPoint.budget)}; ` +
    `${formatCount(compressions)} compressions saved ${formatCount(saved)} tokens in all.${cache}`;
  const reusedLine =
    sent.length > 0
      ? [`<polyline class="reused" points="${sent.map((p) => `${x(p.request)},${y(p.reused ?? 0)}`).join(' ')}" ${UNSCALED_STROKE}/>`]
      : [];
  return [
    `<h2 id="timeline-title">Timeline</h2>`,
    `<p id="timeline-desc" class="summary">${escapeHtml(description)}</p>`,
    `<svg class="timeline" ${FRAME} role="img" aria-labelledby="timeline-title timeline-desc">`,
    `<line class="budget-line" x1="0" x2="${WIDTH}" y1="${y(budget)}" y2="${y(budget)}" ${UNSCALED_STROKE}/>`,
    ...levelLines,
    ...ticks,
    `<polyline class="before" points="${line((p) => p.before)}" ${UNSCALED_STROKE}/>`,
    `<polyline class="after" points="${line((p) => p.after)}" ${UNSCALED_STROKE}/>`,
    ...reusedLine,
    `</svg>`,
    `<p class="axis"><span>request 1</span><span>request ${formatCount(last)}</span></p>`,
    `<p class="key">${LINE_KEY}${sent.length > 0 ? REUSED_KEY : ''}${kindKey(t.markers)}</p>`,
    compressionsTable(t.markers),
  ].join('');
}

/** The kinds of compression drawn, each with its colour. */
function kindKey(markers: readonly TimelineMarker[]): string {
  const seen = new Map(markers.map((m) => [m.kind, m.label]));
  return [...seen].map(([kind, label]) => `<span><span class="swatch-tick kind-${kind}"></span>${escapeHtml(label)}</span>`).join('');
}

/** The markers of each request, in request order. */
function byRequest(markers: readonly TimelineMarker[]): Map<number, TimelineMarker[]> {
  const out = new Map<number, TimelineMarker[]>();
  for (const m of markers) out.set(m.request, [...(out.get(m.request) ?? []), m]);
  return out;
}

/** What a request's tick says: each kind of compression in it and what it saved. */
function tickWords(request: number, markers: readonly TimelineMarker[]): string {
  const kinds = markers.map((m) => `${timesLabel(m)} (saved ${formatCount(m.savedTokens)})`);
  return `Request ${request}: ${kinds.join(', ')}`;
}

/** A kind of compression, and how many times it ran in the request when more than once: "Watermark ×3". */
function timesLabel(m: TimelineMarker): string {
  return `${m.label}${m.count > 1 ? ` ×${m.count}` : ''}`;
}

/** The first event's own words, shortened, and how many more there were. */
function detailWords(m: TimelineMarker, chars: number): string {
  const first = shortenEnd(m.details[0] ?? '', chars);
  return m.count > 1 ? `${first} (and ${m.count - 1} more)` : first;
}

function compressionsTable(markers: readonly TimelineMarker[]): string {
  if (markers.length === 0) return '<p class="empty">Nothing was compressed yet.</p>';
  const rows = markers
    .slice(-TABLE_ROWS)
    .reverse()
    .map((m) => {
      const what = `<span class="swatch-tick kind-${m.kind}"></span>${escapeHtml(timesLabel(m))}`;
      const detail = escapeHtml(detailWords(m, ROW_DETAIL_CHARS));
      return `<tr><td class="num">${m.request}</td><td>${what}</td><td class="num">${formatCount(m.savedTokens)}</td><td>${detail}</td></tr>`;
    })
    .join('');
  const summary = `<summary>Compressions by request, newest first (${formatCount(markers.length)})</summary>`;
  return `<details class="compressions">${summary}<table>${COMPRESSIONS_HEAD}<tbody>${rows}</tbody></table></details>`;
}
