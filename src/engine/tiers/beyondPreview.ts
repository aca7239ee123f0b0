/**
 * What a result offloaded on arrival said beyond its preview, added to the preview itself: the error lines and
 * outcomes a preview of its first and last lines leaves out (a refusal in the middle of a 3,000-line log). They are
 * written once, as the result arrives, so they cost no cache: the request only grows by them.
 */
import { compactText } from '../facts/factLines';
import type { Fact } from '../model/fact';

/** Most lines added to a preview. @default 8 */
export const MAX_BEYOND_PREVIEW_LINES = 8;
/** Characters a line may take. @default 240 */
const MAX_LINE_CHARS = 240;

/** The section to add to a preview for these facts of its result (none when no error or outcome is left out). */
export function beyondPreviewSection(facts: readonly Fact[]): string {
  const lines = facts
    .filter((f) => f.from === undefined && (f.kind === 'error' || f.kind === 'outcome'))
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_BEYOND_PREVIEW_LINES)
    .map((f) => `- ${compactText(f, MAX_LINE_CHARS)}`);
  return lines.length === 0 ? '' : ['', 'Also in the full result (lines the preview leaves out):', ...lines].join('\n');
}
