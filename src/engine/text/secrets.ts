/**
 * Masks strings that look like credentials in what ctx writes for people and models to read:
 * previews of offloaded results, deterministic summaries, the status report, logs, search results. The archive
 * and the offloaded files keep the original bytes; only the copies shown are masked.
 *
 * Two kinds of evidence, found on the original text and masked together:
 * - a token with a provider's own shape, by gitleaks' maintained rule set (`secretShapes.ts`, over 200 providers);
 * - a value in a credential's place (`credentialClasses.ts`): assigned to a credential's name, an `Authorization`
 *   header's, a command line's `--password`, a URL's password, a private key file's secret part.
 * A bare random-looking string (a hash, a UUID, base64 file content) is never masked on its own:
 * without a provider's shape or a credential's place there is no telling it from data.
 */
import { classSecretSpans } from './credentialClasses';
import { providerSecretSpans } from './secretShapes';
import type { SecretSpan } from './secretSpan';

/** The text with every credential-looking string replaced by `[masked <kind>]`. */
export function maskSecrets(text: string, options: MaskOptions = {}): string {
  return maskSecretsCounted(text, options).text;
}

/** How a mask is written. */
export interface MaskOptions {
  /** A masked span keeps its line breaks after its mask, so the lines after it keep their numbers. @default false */
  readonly keepLines?: boolean;
}

/** As `maskSecrets`, and how many strings were masked. */
export function maskSecretsCounted(text: string, options: MaskOptions = {}): { text: string; masked: number } {
  // Provider shapes first, then the classes, then what a name alone found: where two find the same secret, the
  // first names it (a provider's name is the more telling one).
  const found = [...providerSecretSpans(text), ...classSecretSpans(text)];
  const spans = merged([...found.filter((s) => !s.byName), ...found.filter((s) => s.byName)]);
  if (spans.length === 0) return { text, masked: 0 };
  let out = '';
  let at = 0;
  for (const span of spans) {
    const breaks = options.keepLines ? '\n'.repeat(text.slice(span.start, span.end).split('\n').length - 1) : '';
    out += `${text.slice(at, span.start)}[masked ${span.kind}]${breaks}`;
    at = span.end;
  }
  return { text: out + text.slice(at), masked: spans.length };
}

/** The spans in order, overlapping ones joined into one that keeps the kind of the first found. */
function merged(spans: readonly SecretSpan[]): SecretSpan[] {
  const order = spans.map((span, found) => ({ span, found })).sort((a, b) => a.span.start - b.span.start || a.found - b.found);
  const out: { start: number; end: number; kind: string; found: number }[] = [];
  for (const { span, found } of order) {
    const last = out[out.length - 1];
    if (last && span.start < last.end) {
      if (found < last.found) Object.assign(last, { kind: span.kind, found });
      last.end = Math.max(last.end, span.end);
    } else {
      out.push({ ...span, found });
    }
  }
  return out;
}
