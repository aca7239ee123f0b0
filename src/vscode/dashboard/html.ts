/**
 * Building HTML safely as strings: every value put into markup goes through `escapeHtml`, so text
 * from a conversation can never become markup in the dashboard. Pure, so it is tested in plain node.
 */
import type { Level } from '../../engine/host/settings';

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * A share (0..1) as a percentage for people: "12%", "4.3%", "<0.1%". Rounded down, as every level
 * figure is, so a share never reads as past a threshold it has not reached (84.96% shows as 84%).
 */
export function percent(share: number): string {
  const p = share * 100;
  if (p > 0 && p < 0.1) return '<0.1%';
  return `${p >= 10 ? Math.floor(p) : (Math.floor(p * 10) / 10).toFixed(1)}%`;
}

/** A share (0..1) as an SVG coordinate in percent, rounded for short markup. */
export function svgPercent(share: number): string {
  return `${Math.max(0, Math.round(share * 100_000) / 1000)}%`;
}

/** A time of day for people, in their own time zone: "10:35:22". */
export function timeOfDay(at: number): string {
  return new Date(at).toTimeString().slice(0, 8);
}

/** A column of a table: its title, and whether it holds figures (aligned as numbers). */
export interface TableColumn {
  readonly title: string;
  readonly numeric?: boolean;
}

/** A table's head: one header cell a column, each scoped to its column. */
export function tableHead(columns: readonly TableColumn[]): string {
  const cells = columns.map((c) => `<th scope="col"${c.numeric ? ' class="num"' : ''}>${c.title}</th>`);
  return `<thead><tr>${cells.join('')}</tr></thead>`;
}

/** A context level as a badge, coloured by the level. */
export function levelBadge(level: Level): string {
  return `<span class="level level-${level.toLowerCase()}">${level}</span>`;
}
