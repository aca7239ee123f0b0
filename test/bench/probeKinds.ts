/**
 * The replay benchmark's probe figures by kind (intent, artifact, error, decision, outcome): what
 * kind of early fact a compressed context keeps verbatim, and which ones only search finds.
 */
import type { BenchRow } from './benchRow';

/** What became of one probe in one replay. */
export interface ProbeOutcome {
  readonly kind: string;
  /** In the final context, as written or JSON-escaped. */
  readonly verbatim: boolean;
  /** Led to by a search hit in the top ranks. */
  readonly found: boolean;
  /** In the context that dropping the oldest messages leaves at the same budget. */
  readonly dropOldest: boolean;
}

/** The kinds of probes, in the order the report lists them. */
export const PROBE_KINDS = ['intent', 'artifact', 'error', 'decision', 'outcome'] as const;

const share = (part: number, whole: number) => (whole > 0 ? (100 * part) / whole : NaN);

/** One row per kind: the share kept verbatim against drop-oldest, with search in the note. */
export function probeKindRows(group: string, outcomes: readonly ProbeOutcome[], searchTop: number, scope: string): BenchRow[] {
  const kinds = [...PROBE_KINDS, ...new Set(outcomes.map((o) => o.kind).filter((k) => !(PROBE_KINDS as readonly string[]).includes(k)))];
  return kinds.flatMap((kind) => {
    const ofKind = outcomes.filter((o) => o.kind === kind);
    if (ofKind.length === 0) return [];
    const count = (pick: (o: ProbeOutcome) => boolean) => ofKind.filter(pick).length;
    const verbatim = share(
      count((o) => o.verbatim),
      ofKind.length,
    );
    const dropOldest = share(
      count((o) => o.dropOldest),
      ofKind.length,
    );
    return [
      {
        group,
        name: `${kind} probes kept verbatim in the final context`,
        value: verbatim,
        unit: '%',
        baseline: dropOldest,
        ...(dropOldest > 0 ? { ratio: verbatim / dropOldest } : {}),
        note:
          `${count((o) => o.verbatim)} of ${ofKind.length} ${kind} probes (${scope}); ` +
          `found by search in the top ${searchTop}: ${count((o) => o.found)}; in the context or found: ${count((o) => o.verbatim || o.found)}; ` +
          `baseline: drop-oldest keeps ${count((o) => o.dropOldest)}`,
      },
    ];
  });
}
