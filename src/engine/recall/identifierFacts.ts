/**
 * Names people and the model wrote: file paths and file names (artifacts), and functions, classes,
 * config keys and ids (identifiers). A name counts more when the user wrote it and the more often
 * it comes back; each is kept once, where it first appeared.
 */
import { keyedCandidate, type Candidate } from './candidate';
import type { FactKind } from '../model/fact';

/** Scores of names by who wrote them, a file name gaining `artifact`; each repetition adds {@link REPEAT_BONUS}, at most {@link MAX_REPEATS} times. */
export const NAME_SCORES = { user: 0.45, assistant: 0.3, artifact: 0.05 } as const;
/** What a name gains each time it comes back. @default 0.05 */
export const REPEAT_BONUS = 0.05;
/** Repetitions counted at most. @default 4 */
export const MAX_REPEATS = 4;

/** Punctuation around a word that is not part of the name. */
const OPENING = /^[("'[{<*]+/;
const CLOSING = /[)"'\]}>*,:;!?]+$|\.+$/;
/** A `:line` or `:line:column` after a file name. */
const LOCATION = /(?::\d+){1,2}$/;
const PATH = /^(?:~|\.{1,2})?\/?(?:[\w@.-]+\/)+[\w@.-]+\.[A-Za-z0-9]{1,8}$/;
const FILE_NAME = /^[\w@-]*[A-Za-z][\w@-]*\.[a-z][a-z0-9]{0,5}$/;
/** Shapes of other names, each tried on a whole word. */
const NAME_SHAPES: readonly RegExp[] = [
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  /^[A-Za-z_][\w.]*\(\)$/,
  /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/,
  /^_*[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/,
  /^(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)$/,
  /^(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}$/,
  /^[A-Za-z]{2,}-(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{2,}$/,
];
/** A word holds one of these when it can be a name at all: most words are plain and skipped at once. */
const NAME_CHARS = /[/._()\d-]|[a-z][A-Z]|[A-Z]{2}/;
/** Short words that look like file names but are not (`e.g.`, `i.e.`; `Node.js` is a name and stays). */
const NOT_FILES = /^(?:e\.g|i\.e|etc|vs|a\.k\.a)$/i;
const CODE_SPAN = /`([^`\n\s]{3,80})`/g;
/** A markup tag standing as a word (`<system_instruction>`, `</context>`): a frame a host or a writer put there, no name. */
const MARKUP_TAG = /^<\/?[A-Za-z][\w.:-]*\/?>$/;
const LETTER = /\p{L}/u;

/** The names in a line with their kind: code spans, then the words shaped like paths, file names or identifiers. */
function namesOf(line: string): Map<string, FactKind> {
  const names = new Map<string, FactKind>();
  if (line.includes('`')) {
    for (const m of line.matchAll(CODE_SPAN)) if (LETTER.test(m[1])) names.set(m[1], looksLikeFile(m[1]) ? 'artifact' : 'identifier');
  }
  for (const raw of line.split(/\s+/)) {
    if (raw.length < 3 || raw.includes('`') || !NAME_CHARS.test(raw) || MARKUP_TAG.test(raw)) continue;
    const word = raw.replace(OPENING, '').replace(CLOSING, '').replace(LOCATION, '');
    if (word.length < 3 || names.has(word)) continue;
    if (word.includes('/')) {
      if (PATH.test(word)) names.set(word, 'artifact');
    } else if (word.includes('.') && FILE_NAME.test(word) && !NOT_FILES.test(word)) names.set(word, 'artifact');
    else if (NAME_SHAPES.some((shape) => shape.test(word))) names.set(word, 'identifier');
  }
  return names;
}

interface Seen {
  kind: FactKind;
  key: string;
  messageId: string;
  seq: number;
  user: boolean;
  count: number;
}

/** Collects names line by line; `facts()` gives each once with its score. */
export class NameCollector {
  private readonly seen = new Map<string, Seen>();

  /** Reads the names of one prose line of a user or assistant message. */
  add(line: string, site: { readonly messageId: string; readonly seq: number }, user: boolean): void {
    for (const [name, kind] of namesOf(line)) {
      const key = name.toLowerCase();
      const known = this.seen.get(key);
      if (known) {
        known.count++;
        known.user ||= user;
      } else this.seen.set(key, { kind, key: name, messageId: site.messageId, seq: site.seq, user, count: 1 });
    }
  }

  /** Every name once, scored by who wrote it and how often it came back. */
  facts(): Candidate[] {
    const out: Candidate[] = [];
    for (const s of this.seen.values()) {
      const score =
        (s.user ? NAME_SCORES.user : NAME_SCORES.assistant) +
        (s.kind === 'artifact' ? NAME_SCORES.artifact : 0) +
        REPEAT_BONUS * Math.min(MAX_REPEATS, s.count - 1);
      const fact = keyedCandidate(s.kind, s.key, s.key, { messageId: s.messageId, seq: s.seq }, score);
      if (fact) out.push(fact);
    }
    return out;
  }
}

function looksLikeFile(name: string): boolean {
  return /\//.test(name) || /^[\w@.-]+\.[a-z][a-z0-9]{0,5}$/.test(name);
}
