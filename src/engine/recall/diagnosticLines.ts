/**
 * Error lines of tool results, found by the shape every tool's diagnostics share rather than by one
 * tool's wording: a line that opens with a diagnostic word or an exception's name (`fatal: …`,
 * `ImportError: …`, `error[E0308]: …`, `npm ERR! …`), a compiler's `file:line: error` form, or one of
 * the few phrases operating systems and runtimes print when something is missing or refused. A
 * failed call's lines count more than those of a call that went on; the agent may have worked
 * around either instead of running it again, so each is kept with the call it came from.
 */
import { cleanLine, isNoiseLine } from '../ledger/resultLines';
import { candidate, type Candidate } from './candidate';
import type { ToolStep } from './toolSteps';

/** Scores of a diagnostic line: from a failed call, or from one that otherwise went on. */
export const DIAGNOSTIC_SCORES = { failed: 0.6, wentOn: 0.42 } as const;
/** Most diagnostic lines read from one result. @default 3 */
export const MAX_DIAGNOSTICS_PER_RESULT = 3;
/** Lines of a result looked at from its start, and from its end. @default 120 and 40 */
export const DIAGNOSTIC_HEAD_LINES = 120;
export const DIAGNOSTIC_TAIL_LINES = 40;
/** Longest line taken as a diagnostic, in characters: longer lines are data. @default 300 */
export const MAX_DIAGNOSTIC_CHARS = 300;

const OPENS_WITH_DIAGNOSTIC =
  /^(?:error|fatal|panic|exception|traceback|failed|failure|err!?|abort(?:ed)?)\b\s*(?:\[[^\]]*\]|\([^)]*\))?\s*[:!-]/i;
/** A runner's verdict in capitals at the start of a line: `ERROR tests/x.py::…`, `FAILED …`, `--- FAIL: TestX`. */
const SHOUTED_VERDICT = /^(?:-{3}\s+)?(?:ERROR|FAILED|FAIL|FATAL|PANIC)\b/;
const EXCEPTION_NAME = /^(?:[\w$]+\.)*[\w$]*(?:Error|Exception|Failure|Fault)\b\s*(?::|$)/;
/** An exception named after a label: `as_set raised: NotImplementedError: …`, `warning: DeprecationWarning: …`. */
const LABELLED_EXCEPTION = /^[^:]{1,60}:\s+(?:[\w$]+\.)*[\w$]*(?:Error|Exception|Failure|Fault)\b\s*:/;
/** A runner's tally that counts failures: `2 errors in 0.29s`, `Tests: 3 failed, 10 passed`. */
const FAILING_TALLY = /(?:^|[^\d.])[1-9]\d*\s+(?:errors?|failed|failures?|failing)\b/i;
const TOOL_PREFIXED = /^[\w.@/-]{1,40}(?:\s+ERR!\s|\s*:\s*(?:error|fatal|failed|cannot|could not|unable)\b)/i;
const COMPILER_FORM = /^[^\s:]+:\d+(?::\d+)?:?\s*(?:error|fatal error)\b/i;
/** What operating systems and runtimes print when something is missing or refused. */
const OS_PHRASES = new RegExp(
  String.raw`\b(?:${[
    'command not found',
    'no such file or directory',
    'permission denied',
    'is not recognized as',
    'cannot find (?:module|symbol|name|package)',
    'module not found',
    'undefined reference',
    'connection refused',
    'segmentation fault',
    'not found',
    'timed out',
  ].join('|')})\b`,
  'i',
);
/** A tally of nothing (`failed: 0`, `0 errors`): a runner saying all went well. */
const ZERO_COUNT = /\b(?:errors?|fail\w*|failures?)\s*[:=]\s*0(?![\d.])|(?:^|[^\d.])0\s+(?:errors?|fail\w*|failures?)\b/i;
const DIAGNOSTIC_FORMS = [
  OPENS_WITH_DIAGNOSTIC,
  SHOUTED_VERDICT,
  EXCEPTION_NAME,
  LABELLED_EXCEPTION,
  FAILING_TALLY,
  TOOL_PREFIXED,
  COMPILER_FORM,
  OS_PHRASES,
];

/** True when `line` reads like a diagnostic in any tool's format. */
export function isDiagnosticLine(line: string): boolean {
  return DIAGNOSTIC_FORMS.some((form) => form.test(line)) && !ZERO_COUNT.test(line);
}

/** The diagnostic lines of a step's result that is not a file's content, as error candidates with the call's subject. */
export function diagnosticCandidates(step: ToolStep): Candidate[] {
  if (step.activity.kind === 'file') return [];
  const where = { messageId: step.messageId, seq: step.seq };
  const score = step.ok ? DIAGNOSTIC_SCORES.wentOn : DIAGNOSTIC_SCORES.failed;
  const lines = [...new Set(edgeLines(step.result.content))].filter(
    (line) => line.length <= MAX_DIAGNOSTIC_CHARS && isDiagnosticLine(line),
  );
  const found: Candidate[] = [];
  for (const line of firstAndLast(lines, MAX_DIAGNOSTICS_PER_RESULT)) {
    const fact = candidate('error', line, where, score, step.subject ? { subject: step.subject } : {});
    if (fact) found.push(fact);
  }
  return found;
}

/**
 * At most `max` of `lines`, in their order: the last one always (a runner's verdict stands at the
 * end of its output), the others from the start (the first error is the one the rest follow from).
 */
function firstAndLast(lines: readonly string[], max: number): readonly string[] {
  if (lines.length <= max) return lines;
  return [...lines.slice(0, max - 1), lines[lines.length - 1]];
}

/** The cleaned, meaningful lines at the start and the end of `content`, read without splitting all of it. */
function edgeLines(content: string): string[] {
  const lines: string[] = [];
  let at = 0;
  for (let n = 0; n < DIAGNOSTIC_HEAD_LINES && at <= content.length; n++) {
    const next = content.indexOf('\n', at);
    const end = next < 0 ? content.length : next;
    push(content.slice(at, Math.min(end, at + MAX_DIAGNOSTIC_CHARS + 1)), lines);
    at = end + 1;
  }
  if (at > content.length) return lines;
  const tail: string[] = [];
  let stop = content.length;
  for (let n = 0; n < DIAGNOSTIC_TAIL_LINES && stop > at; n++) {
    const start = Math.max(at, content.lastIndexOf('\n', stop - 1) + 1);
    push(content.slice(start, Math.min(stop, start + MAX_DIAGNOSTIC_CHARS + 1)), tail);
    stop = start - 1;
  }
  return [...lines, ...tail.reverse()];
}

function push(raw: string, into: string[]): void {
  const line = cleanLine(raw);
  if (line.length > 0 && !isNoiseLine(line)) into.push(line);
}
