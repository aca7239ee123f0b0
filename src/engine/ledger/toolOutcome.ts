/**
 * Whether a tool call worked, read from its result: the error flag, the exit status in the forms
 * real agents print it, and failure objects of tools that answer in JSON.
 */
import type { ToolResultBlock } from '../types';
import { endsInFailure } from './unstatedFailure';
import { withoutHostFrame } from '../text/hostFrame';

/** How a call ended. */
export interface ToolOutcome {
  readonly ok: boolean;
  /** The exit status, when a shell result states it. */
  readonly exitCode?: number;
}

/**
 * Exit-status lines, one per agent format:
 * - Claude Code `Bash` errors start with `Exit code 1`;
 * - mini-swe-agent wraps output as `<returncode>1</returncode><output>…`;
 * - Claude Code `TaskOutput` has `<exit_code>0</exit_code>` near the top;
 * - OpenHands ends with `[The command completed with exit code 1.]` (older: `[Command finished with exit code 1]`)
 *   and says `Command `x` executed with exit code 1.`;
 * - Copilot CLI ends with `<exited with exit code 1>` or `<shellId: 4 completed with exit code 1>`;
 * - generic `exited with code 1` / `exit status 1`.
 */
const EXIT_CODE_LINES: readonly RegExp[] = [
  /^Exit code:?\s*(-?\d+)$/i,
  /^<returncode>\s*(-?\d+)\s*<\/returncode>/,
  /^<exit_code>\s*(-?\d+)\s*<\/exit_code>$/,
  /^\[The command completed with exit code (-?\d+)\.?\]$/,
  /^\[Command finished with exit code (-?\d+)\]$/,
  /^Command `.*` executed with exit code (-?\d+)\.?$/,
  /^(?:the )?(?:command|process)\s+(?:exited|finished|failed|completed) with (?:exit )?(?:code|status) (-?\d+)\.?$/i,
  /^<exited with exit code (-?\d+)>$/,
  /^<shellId: [^<>]+ completed with exit code (-?\d+)>$/,
];
/**
 * A program's own last line saying that it failed, with the status it failed with: a script runner's `error: script
 * "lint" exited with code 1`, Go's `exit status 1`, make's `make: *** [build] Error 2`. A command piped into another
 * (`npm test | tail -5`) ends with the last program's status, so the shell reports success; this line is then the only
 * word of the failure. Bash's report that a job it ran in the background ended (`[1]+  Exit 127   go run .`) is such a
 * line too. Only a non-zero status counts.
 */
const FAILURE_LAST_LINES: readonly RegExp[] = [
  /^\[\d+\][+-]?\s+Exit ([1-9]\d*)(?:\s|$)/,
  /\b(?:exited|failed) with (?:exit )?(?:code|status) ([1-9]\d*)\.?$/i,
  /(?:^|: )exit status ([1-9]\d*)$/,
  /^[\w.-]*make(?:\[\d+\])?: \*\*\* .* Error ([1-9]\d*)$/,
];
/** A word every line of {@link EXIT_CODE_LINES} holds. */
const EXIT_WORDS = /code|status/i;

/** True for a line in which the host states a command's exit status: what the call came to, not what it printed. */
export function isExitStatusLine(line: string): boolean {
  return exitCodeOfLine(line) !== undefined;
}

/** The status a host's exit-status line states (see {@link isExitStatusLine}); undefined for any other line. */
export function exitCodeOfLine(line: string): number | undefined {
  // Every exit-status line names a code or a status; most lines name neither.
  if (!EXIT_WORDS.test(line)) return undefined;
  const trimmed = line.trim();
  for (const p of EXIT_CODE_LINES) {
    const match = p.exec(trimmed);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/** True for a line in which a program says only that it failed and with what status (see {@link FAILURE_LAST_LINES}). */
export function isFailureStatusLine(line: string): boolean {
  const trimmed = line.trim();
  return FAILURE_LAST_LINES.some((p) => p.test(trimmed));
}

/** Exit-status lines sit at the top or the bottom of a result; the middle is the program's own output. */
const HEAD_LINES = 15;
const TAIL_LINES = 3;
/** Only this many characters at each end are split into lines, however long the output. */
const EDGE_CHARS = 4000;
/** Only results this small are parsed as JSON to look for `"success": false`. */
const MAX_JSON_CHARS = 200_000;

/**
 * The exit status a result states at its top or bottom, or undefined. A failure the program's last line states
 * outranks a success the shell states after it (see {@link FAILURE_LAST_LINES}).
 */
export function exitCodeFromResult(content: string): number | undefined {
  const stated = statedExitCode(content);
  return stated === undefined || stated === 0 ? (failureOfLastLine(content) ?? stated) : stated;
}

function statedExitCode(content: string): number | undefined {
  // Only the lines looked at are split off: the first ones, and the last ones found from the end.
  const headLines = content.slice(0, EDGE_CHARS).split('\n', HEAD_LINES + 1);
  const head = headLines.slice(0, HEAD_LINES);
  const whole = content.length <= EDGE_CHARS;
  const tail = whole
    ? headLines.length > HEAD_LINES
      ? lastLines(content, TAIL_LINES, 0)
      : []
    : lastLines(content, TAIL_LINES, content.length - EDGE_CHARS);
  for (const raw of [...head, ...tail]) {
    const code = exitCodeOfLine(raw);
    if (code !== undefined) return code;
  }
  return undefined;
}

/** The status of a failure the output's last line (before any exit-status line of the host) states, or undefined. */
function failureOfLastLine(content: string): number | undefined {
  const tail = lastLines(content.slice(-EDGE_CHARS).trimEnd(), TAIL_LINES, 0);
  for (let i = tail.length - 1; i >= 0; i--) {
    const line = tail[i].trim();
    if (line === '' || isExitStatusLine(line)) continue;
    for (const pattern of FAILURE_LAST_LINES) {
      const match = pattern.exec(line);
      if (match) return Number(match[1]);
    }
    return undefined;
  }
  return undefined;
}

/** The last `count` lines of `text` that start at or after `from` (the first one cut at `from`), in order. */
function lastLines(text: string, count: number, from: number): string[] {
  const lines: string[] = [];
  let end = text.length;
  while (lines.length < count) {
    const at = text.lastIndexOf('\n', end - 1);
    if (at < from || end === 0) {
      lines.unshift(text.slice(from, end));
      break;
    }
    lines.unshift(text.slice(at + 1, end));
    end = at;
  }
  return lines;
}

/**
 * How a call ended: failed when the result is flagged as an error, a shell result states a
 * non-zero exit status or, stating none, ends as a failed run does (`unstatedFailure`), or a JSON result reports
 * `"success": false`.
 */
export function toolOutcome(result: ToolResultBlock, isCommand: boolean): ToolOutcome {
  const exitCode = isCommand ? exitCodeFromResult(result.content) : undefined;
  // With no status stated, the output's end says how the run ended (see `unstatedFailure`).
  const failedUnstated = isCommand && exitCode === undefined && endsInFailure(withoutHostFrame(result.content));
  const ok = !result.isError && (exitCode === undefined || exitCode === 0) && !failedUnstated && !reportsFailure(result.content);
  return exitCode === undefined ? { ok } : { ok, exitCode };
}

/** Cline-style results: `{"success": false, …}` or a list of such objects. */
function reportsFailure(content: string): boolean {
  const start = content.trimStart()[0];
  if ((start !== '{' && start !== '[') || content.length > MAX_JSON_CHARS || !content.includes('"success"')) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return false;
  }
  const entries: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  return entries.some((e) => typeof e === 'object' && e !== null && (e as Record<string, unknown>).success === false);
}
