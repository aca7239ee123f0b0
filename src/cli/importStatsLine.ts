/** What an import left out or stood in for, in one line of plain words: nothing is dropped without a count. */
import type { ImportStats } from './import/importTypes';

const count = (x: number) => Math.round(x).toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** Skipped kinds named in the line, largest first; the rest are counted together. */
const KINDS_NAMED = 4;

/** "1,881 records read; 1,366 skipped (progress 1,332, system 6, …); 12 thinking blocks dropped; …" */
export function renderImportStats(stats: ImportStats): string {
  const parts = [plural(stats.records, 'record read', 'records read')];
  if (stats.skipped > 0) parts.push(`${count(stats.skipped)} skipped (${skippedKinds(stats.skippedByKind)})`);
  if (stats.thinkingBlocks > 0) parts.push(`${plural(stats.thinkingBlocks, 'thinking block', 'thinking blocks')} dropped`);
  if (stats.placeholders > 0) parts.push(`${plural(stats.placeholders, 'image or file', 'images or files')} kept as a placeholder`);
  if (stats.injectedBlocks > 0) parts.push(`${plural(stats.injectedBlocks, 'block', 'blocks')} of injected context kept as data`);
  if (stats.unpairedResults > 0) parts.push(`${plural(stats.unpairedResults, 'result', 'results')} without a call kept as text`);
  if (stats.unansweredCalls > 0) parts.push(`${plural(stats.unansweredCalls, 'call', 'calls')} without a result`);
  return parts.join('; ');
}

function skippedKinds(byKind: Readonly<Record<string, number>>): string {
  const kinds = Object.entries(byKind).sort(([, a], [, b]) => b - a);
  const named = kinds.slice(0, KINDS_NAMED).map(([kind, n]) => `${kind} ${count(n)}`);
  const rest = kinds.slice(KINDS_NAMED).reduce((n, [, k]) => n + k, 0);
  return rest > 0 ? `${named.join(', ')}, ${count(rest)} other` : named.join(', ');
}
