/**
 * How long the integration tests wait, as limits rather than expectations: a machine that runs other jobs beside the
 * suite (a CI runner) runs it several times slower than an idle one, and a wait that only ever ends early costs a
 * passing run nothing. Every time limit of the suite (a test's, a page request's, a poll's) goes through `patient`.
 * CTX_TEST_PATIENCE sets the factor.
 * @default 3
 */
export const PATIENCE = Math.max(1, Number(process.env.CTX_TEST_PATIENCE) || 3);

/** A time limit of the suite, in milliseconds, at the suite's patience. */
export function patient(ms: number): number {
  return ms * PATIENCE;
}
