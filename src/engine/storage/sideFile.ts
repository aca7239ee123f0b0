/** Names for files moved aside: kept next to the original, never overwritten, dated. */
import { fileTimestamp } from '../text/sanitize';

/**
 * `state.json` → `state.<label>-<time>.json`: the label and the time go before the extension, so
 * the side file still opens as what it is. A running number above 1 is added after the time.
 */
export function sideFilePath(path: string, label: string, at: number, number = 1): string {
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  return `${folder}${stem}.${label}-${fileTimestamp(at)}${number > 1 ? `-${number}` : ''}${ext}`;
}
