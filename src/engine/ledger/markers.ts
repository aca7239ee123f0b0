/**
 * Markers (design §5.2): lines such as `[DECISION] Use JWT - LOCKED` that the user or the model
 * writes to keep goals, decisions and progress out of reach of summarization.
 *
 * Only the start of a line counts, and nothing inside a fenced code block: a marker quoted in an
 * example or a code sample is not an instruction.
 */

export type MarkerKind = 'goal' | 'checkpoint' | 'decision' | 'artifact' | 'next';

/** One marker line, its tag and status taken off. */
export interface Marker {
  readonly kind: MarkerKind;
  /** The text after the tag, trimmed, without the status suffix. */
  readonly text: string;
  /** Lower-case status from a trailing ` - COMPLETED`, ` - IN PROGRESS`, ` - PENDING`, ` - LOCKED` or `(locked)`. */
  readonly status?: MarkerStatus;
}

export type MarkerStatus = 'completed' | 'in-progress' | 'pending' | 'locked';

const KINDS: Readonly<Record<string, MarkerKind>> = {
  goal: 'goal',
  checkpoint: 'checkpoint',
  decision: 'decision',
  artifact: 'artifact',
  next: 'next',
};

/**
 * A marker line: optional indentation, blockquote, bullet (`-`, `*`, `+`, `1.`, `1)`) and bold or
 * underline emphasis around the tag, then the tag and an optional colon.
 */
const MARKER_LINE =
  /^\s*(?:>\s*)?(?:(?:[-*+]|\d{1,3}[.)])\s+)?(\*\*|__)?\[(goal|checkpoint|decision|artifact|next)\]:?(\*\*|__)?\s*:?\s*(.*)$/i;

/** A status suffix: ` - COMPLETED` (any dash) or `(completed)`, case-insensitive. */
const STATUS_SUFFIX = /(?:(?:^|\s+)[-–—]\s*|\s*\()(completed|done|in[ -]progress|pending|locked)\)?\s*$/i;

/** An opening or closing code fence: three or more backticks or tildes. */
const FENCE = /^\s*(`{3,}|~{3,})/;

/** Every marker in `text`, in order. Lines inside fenced code blocks and markers with no text are ignored. */
export function parseMarkers(text: string): Marker[] {
  const markers: Marker[] = [];
  let fence: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const run = fenceMatch[1];
      if (fence === undefined) fence = run;
      else if (run[0] === fence[0] && run.length >= fence.length && line.trim() === run) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const marker = parseMarkerLine(line);
    if (marker) markers.push(marker);
  }
  return markers;
}

function parseMarkerLine(line: string): Marker | undefined {
  const match = MARKER_LINE.exec(line);
  if (!match) return undefined;
  const [, openEmphasis, tag, closeEmphasis, rest] = match;
  let body = rest.trim();
  // `**[DECISION] text**`: the emphasis closes at the end of the line instead of after the tag.
  if (openEmphasis && !closeEmphasis && body.endsWith(openEmphasis)) body = body.slice(0, -openEmphasis.length).trim();
  const statusMatch = STATUS_SUFFIX.exec(body);
  const status = statusMatch ? normalizeStatus(statusMatch[1]) : undefined;
  if (statusMatch) body = body.slice(0, statusMatch.index).trim();
  if (body.length === 0) return undefined;
  const kind = KINDS[tag.toLowerCase()];
  return status === undefined ? { kind, text: body } : { kind, text: body, status };
}

function normalizeStatus(raw: string): MarkerStatus {
  const lower = raw.toLowerCase();
  if (lower === 'done' || lower === 'completed') return 'completed';
  if (lower === 'pending') return 'pending';
  if (lower === 'locked') return 'locked';
  return 'in-progress';
}
