/**
 * Lines of a tool's output that frame it rather than say what came of it, told by their shape:
 * - the fields a harness wraps a result in (`text/harnessFields.ts`);
 * - the lines of a run a tool prints once for each item it works through: lines of one output that
 *   differ from each other in one word or number only (`==> postgrex`, `Generated postgrex app`,
 *   `Compiling 69 files (.ex)`), a build's chatter or a progress log, not its verdict.
 */
import { hasSourcePlace } from './sourcePlace';
import { withoutFields } from '../text/harnessFields';

/**
 * Fewest lines of one shape that make a run: two lines may differ in one word by chance, three
 * that do are a tool going through items. @default 3
 */
export const MIN_RUN_LINES = 3;
/** Words of a line looked at for its shape: a longer line is a sentence, not an item of a run. @default 12 */
const MAX_SHAPE_WORDS = 12;
const DIGITS = /\d+/g;
/**
 * The indexes of `lines` that belong to a run a tool prints item by item: at least
 * {@link MIN_RUN_LINES} lines that differ from each other in one word (numbers aside). Lines that
 * differ in their numbers only are one message printed for several places (see {@link oncePerPlace}).
 * Linear in the lines' words.
 */
export function repeatedShapes(lines: readonly string[]): Set<number> {
  const shapesOf = lines.map(shapes);
  const places = new Map<string, Set<string>>();
  for (const { place, items } of shapesOf) {
    for (const item of items) {
      const of = places.get(item) ?? new Set<string>();
      of.add(place);
      places.set(item, of);
    }
  }
  const out = new Set<number>();
  shapesOf.forEach(({ items }, i) => {
    if (items.some((item) => (places.get(item)?.size ?? 0) >= MIN_RUN_LINES)) out.add(i);
  });
  return out;
}

/**
 * The indexes of `lines` that are one line printed again and again but for its numbers, at least {@link MIN_RUN_LINES}
 * times (`ok parser case 0`, `ok parser case 1`, …): an item-by-item log whose every line says the same, not a verdict.
 * A line whose numbers place it in a file (`docs/a.md:12:5 MD055 …`) is one finding for several places instead, which
 * {@link oncePerPlace} gives once.
 */
export function numberedRuns(lines: readonly string[]): Set<number> {
  const places = lines.map((line) => (/\d/.test(line) && !hasSourcePlace(line) ? placeOf(line) : undefined));
  const counts = new Map<string, number>();
  for (const place of places) if (place !== undefined) counts.set(place, (counts.get(place) ?? 0) + 1);
  const out = new Set<number>();
  places.forEach((place, i) => {
    if (place !== undefined && (counts.get(place) ?? 0) >= MIN_RUN_LINES) out.add(i);
  });
  return out;
}

/**
 * The text of an output without the harness's fields and the runs it prints item by item (see the
 * header), and a line printed again but for its numbers given once.
 */
export function withoutFrames(content: string, delegatedReport = false): string {
  const lines = withoutFields(content, delegatedReport).split('\n');
  const runs = repeatedShapes(lines);
  return oncePerPlace(
    lines.filter((line, i) => !runs.has(i) && line.trim().length > 0),
    (line) => line,
  ).join('\n');
}

/**
 * `lines` with only the first of the lines that are the same but for their numbers: one message
 * printed for each place it applies to (`a.md:12:5 MD055 Table pipe does not align`, `a.md:19:5 …`).
 */
export function oncePerPlace<T>(lines: readonly T[], textOf: (line: T) => string): T[] {
  const seen = new Set<string>();
  return lines.filter((line) => {
    const place = placeOf(textOf(line));
    if (place !== '' && seen.has(place)) return false;
    seen.add(place);
    return true;
  });
}

/**
 * A line's shapes: `place`, the line with its numbers masked; `items`, that with each of its words
 * masked in turn, when another word than a number stays the same (none for a line of one word or a long one).
 */
function shapes(line: string): LineShapes {
  // The shapes depend on the line with its numbers masked only: lines printed for each item share it.
  const place = placeOf(line);
  const known = KNOWN_SHAPES.get(place);
  if (known !== undefined) return known;
  if (KNOWN_SHAPES.size >= KNOWN_SHAPES_KEPT) KNOWN_SHAPES.clear();
  const found = { place, items: itemsOf(place.split(' ')) };
  KNOWN_SHAPES.set(place, found);
  return found;
}

interface LineShapes {
  readonly place: string;
  readonly items: readonly string[];
}

/** Shapes of lines seen lately: a log prints the same lines over and over, and a summary reads each output's ends again. */
const KNOWN_SHAPES = new Map<string, LineShapes>();
/** Lines whose shapes are kept before the memo starts over (each holds up to a dozen masked copies of its line). @default 5000 */
const KNOWN_SHAPES_KEPT = 5_000;

/** A line's words each masked in turn, when another word than a number stays (none for one word or a long line). */
function itemsOf(words: readonly string[]): string[] {
  if (words.length < 2 || words.length > MAX_SHAPE_WORDS) return [];
  // What stays must be more than numbers: `total: 2417` and `terms.mdx 1` share no shape.
  return words.flatMap((_, i) =>
    words.some((w, j) => j !== i && w !== '#') ? [words.map((w, j) => (j === i ? '\u0000' : w)).join(' ')] : [],
  );
}

/** A line's words, its numbers masked. */
function wordsOf(line: string): string[] {
  return line.trim().replace(DIGITS, '#').split(/\s+/);
}

/** A line with its numbers masked and its spaces made one: what the lines printed for several places share. */
function placeOf(line: string): string {
  return wordsOf(line).join(' ');
}
