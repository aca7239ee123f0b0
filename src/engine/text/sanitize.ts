/** Text clean-up for what leaves the engine: file names and file contents. */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Replaces lone UTF-16 surrogates with U+FFFD. UTF-8 cannot encode them, so a file written from
 * such a string would change silently; the archive (JSON) keeps the original exactly.
 */
export function toWellFormed(text: string): { text: string; replaced: number } {
  let replaced = 0;
  const out = text.replace(LONE_SURROGATE, () => {
    replaced++;
    return '\uFFFD';
  });
  return { text: out, replaced };
}

/** A file-name part: no path separators, no "..", nothing a file system could choke on. */
export function safeFileNamePart(raw: string, fallback: string, maxLength = 60): string {
  const cleaned = raw
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/\.{2,}/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^[._]+|[._]+$/g, '')
    .slice(0, maxLength);
  return cleaned.length > 0 ? cleaned : fallback;
}

/** `20260121-103522-123`: sortable, UTC, safe in a file name. */
export function fileTimestamp(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const day = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  return `${day}-${time}-${pad(d.getUTCMilliseconds(), 3)}`;
}
