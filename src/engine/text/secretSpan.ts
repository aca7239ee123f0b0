/** A stretch of text found to hold a credential, and what kind: the mask replaces it with `[masked <kind>]`. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
  readonly kind: string;
  /** Found by a credential's name alone (gitleaks' generic rule): where another finding covers it, that one names it. */
  readonly byName?: boolean;
}
