/**
 * The first look at a transcript's text: one JSON document, JSON Lines with their line numbers, or
 * plain text (a transcript some agents write as Markdown).
 */
import { MalformedTranscriptError, TranscriptFormatError } from './importErrors';
import { nestsDeeperThan, TOO_DEEP_REASON } from './jsonDepth';
import { isJsonObject } from './jsonShape';

/** A record of a line-based transcript; `line` is 1-based and absent when the source had no lines. */
export interface SourceRecord {
  readonly line?: number;
  readonly value: unknown;
}

/** A line that is not a JSON object, with why. */
export interface MalformedLine {
  readonly line: number;
  readonly reason: string;
}

/** The text as one JSON document, as JSON Lines with the lines that could not be read, or as plain text. */
export type ParsedTranscript =
  | { readonly kind: 'document'; readonly value: unknown }
  | { readonly kind: 'lines'; readonly records: readonly SourceRecord[]; readonly malformed: readonly MalformedLine[] }
  | { readonly kind: 'text'; readonly text: string };

/**
 * Parses the whole text as JSON first; if that fails, line by line. Lines that are not JSON
 * objects are reported, not thrown, so the caller's malformed-line policy decides. A text in which
 * fewer than half the lines that are not blank are JSON objects is plain text (a Markdown log may
 * hold a line such as `{}` in a code block); whether it is a transcript is for detection to say.
 */
export function parseTranscriptText(text: string): ParsedTranscript {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') throw new TranscriptFormatError('the text is empty');
  const whole = tryParse(body);
  if (whole.ok) {
    if (nestsDeeperThan(whole.value)) throw new MalformedTranscriptError(undefined, `the text is one JSON document and ${TOO_DEEP_REASON}`);
    if (typeof whole.value === 'object' && whole.value !== null) return { kind: 'document', value: whole.value };
    throw new TranscriptFormatError('the text is a bare JSON value, not an object or a list');
  }
  const lines = new TranscriptLines();
  body.split(/\r?\n/).forEach((raw) => lines.add(raw));
  return lines.readsAsText() ? { kind: 'text', text: body } : lines.finish();
}

/**
 * Collects JSON Lines one at a time, numbering them from 1 (blank lines count), so a reader can
 * hand them over as it reads them instead of holding the whole text.
 */
export class TranscriptLines {
  private readonly records: SourceRecord[] = [];
  private readonly malformed: MalformedLine[] = [];
  private lineNumber = 0;

  /** Takes the next line, without its line break. */
  add(raw: string): void {
    const line = ++this.lineNumber;
    if (raw.trim() === '') return;
    const parsed = tryParse(raw);
    if (parsed.ok && nestsDeeperThan(parsed.value)) this.malformed.push({ line, reason: TOO_DEEP_REASON });
    else if (parsed.ok && isJsonObject(parsed.value)) this.records.push({ line, value: parsed.value });
    // The reason gives the size, not the text: warnings may be logged, transcripts hold user content.
    else this.malformed.push({ line, reason: `${parsed.ok ? 'not a JSON object' : 'not valid JSON'} (${raw.length} characters)` });
  }

  /** True when fewer than half the lines that are not blank are JSON objects, and none is a JSON value nested too deep. */
  readsAsText(): boolean {
    const { records, malformed } = this;
    return records.length * 2 < records.length + malformed.length && !malformed.some((m) => m.reason === TOO_DEEP_REASON);
  }

  /** The lines read as JSON Lines; throws when no line is a JSON object. */
  finish(): ParsedTranscript {
    const { records, malformed } = this;
    const tooDeep = malformed.find((m) => m.reason === TOO_DEEP_REASON);
    if (records.length === 0 && tooDeep) throw new MalformedTranscriptError(tooDeep.line, TOO_DEEP_REASON);
    if (records.length === 0) throw new TranscriptFormatError('the text is neither JSON nor JSON Lines');
    return { kind: 'lines', records, malformed };
  }
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
