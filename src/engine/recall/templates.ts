/**
 * Sentences the agent writes again and again with other figures ("Step 7: I'll run stage 7 of the pipeline.") are a
 * template, and so are the results of one call repeated over numbered things (`Now in report7.ts: label: "report-7"`):
 * each instance says what the next one says, only the figures move. The latest stands for them all; the
 * others share what they would score, so one template repeated through a long run cannot fill the room that a finding
 * said once needs. Told by shape alone (the words with every figure alike), never by the words.
 */
import type { Candidate } from './candidate';

/** Instances of one shape from which it is a template. @default 3 */
export const TEMPLATE_MIN_TIMES = 3;

/**
 * `candidates`, in their order, with every instance of a template but its latest (the last said) scored lower. An
 * instance is a place the shape was said: the same sentence read by two readers of one message is one instance.
 */
export function withTemplatesShared(candidates: readonly Candidate[]): Candidate[] {
  const places = new Map<string, { seqs: Set<number>; latest: number }>();
  for (const c of candidates) {
    const shape = shapeOf(c.text);
    const place = places.get(shape) ?? { seqs: new Set<number>(), latest: c.seq };
    place.seqs.add(c.seq);
    place.latest = Math.max(place.latest, c.seq);
    places.set(shape, place);
  }
  return candidates.map((c) => {
    const place = places.get(shapeOf(c.text));
    const times = place?.seqs.size ?? 1;
    if (place === undefined || times < TEMPLATE_MIN_TIMES || c.seq >= place.latest) return c;
    return { ...c, score: Math.round((c.score / Math.sqrt(times)) * 1000) / 1000 };
  });
}

/** A sentence's shape: its words with every figure alike. */
function shapeOf(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#');
}
