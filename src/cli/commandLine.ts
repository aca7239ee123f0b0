/**
 * Parses `<command> [arguments] [--flag value] [--switch]`. Flags may come anywhere after the
 * command, as `--name value` or `--name=value`; `--` ends the flags, so a query may start with '-'.
 */
import { UsageError } from './cliErrors';

/** What one command accepts. */
export interface CommandSpec {
  readonly name: string;
  /** Names of the positional arguments, as the usage text shows them; all are required. */
  readonly positionals: readonly string[];
  /** When true, words after the last positional join it with spaces (an unquoted query). */
  readonly lastTakesRest?: boolean;
  /** Flags that take a value. */
  readonly options: readonly string[];
  /** Flags that take no value. */
  readonly switches: readonly string[];
}

export interface ParsedCommand {
  readonly command: string;
  readonly positionals: readonly string[];
  readonly options: ReadonlyMap<string, string>;
  readonly switches: ReadonlySet<string>;
}

/** Either a command to run or a request for help. */
export type CommandLine = { readonly kind: 'help' } | ({ readonly kind: 'command' } & ParsedCommand);

/** Parses the arguments after `node dist/cli.js`; throws a `UsageError` saying what is wrong. */
export function parseCommandLine(argv: readonly string[], specs: readonly CommandSpec[]): CommandLine {
  if (asksForHelp(argv)) return { kind: 'help' };
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('No command given.');
  const spec = specs.find((s) => s.name === command);
  if (!spec) throw new UsageError(`Unknown command "${command}"; the commands are ${specs.map((s) => s.name).join(' and ')}.`);
  return { kind: 'command', ...parseArguments(spec, rest) };
}

/** `help` as the command, or `--help` / `-h` anywhere before a `--`. */
function asksForHelp(argv: readonly string[]): boolean {
  if (argv[0] === 'help') return true;
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

function parseArguments(spec: CommandSpec, args: readonly string[]): ParsedCommand {
  const positionals: string[] = [];
  const options = new Map<string, string>();
  const switches = new Set<string>();
  let flagsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (flagsEnded || !arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      flagsEnded = true;
      continue;
    }
    const [flag, inlineValue] = splitFlag(arg);
    if (spec.switches.includes(flag)) {
      if (inlineValue !== undefined) throw new UsageError(`--${flag} takes no value.`);
      switches.add(flag);
    } else if (spec.options.includes(flag)) {
      if (options.has(flag)) throw new UsageError(`--${flag} is given twice.`);
      const value = inlineValue ?? args[++i];
      if (value === undefined || (inlineValue === undefined && value.startsWith('--'))) throw new UsageError(`--${flag} needs a value.`);
      options.set(flag, value);
    } else {
      throw new UsageError(`Unknown option ${arg.split('=')[0]} for ${spec.name} (put -- before an argument that starts with "-").`);
    }
  }
  return { command: spec.name, positionals: checkPositionals(spec, positionals), options, switches };
}

/** `--name=value` → ['name', 'value']; `--name` → ['name', undefined]. */
function splitFlag(arg: string): [string, string | undefined] {
  const body = arg.replace(/^--?/, '');
  const equals = body.indexOf('=');
  return equals === -1 ? [body, undefined] : [body.slice(0, equals), body.slice(equals + 1)];
}

function checkPositionals(spec: CommandSpec, given: readonly string[]): string[] {
  const wanted = spec.positionals;
  if (given.length < wanted.length) {
    throw new UsageError(
      `${spec.name} needs ${wanted.map((p) => `<${p}>`).join(' and ')}; ${given.length === 0 ? 'none was' : `only ${given.length} was`} given.`,
    );
  }
  if (given.length === wanted.length) return [...given];
  if (spec.lastTakesRest) return [...given.slice(0, wanted.length - 1), given.slice(wanted.length - 1).join(' ')];
  throw new UsageError(
    `${spec.name} takes ${wanted.length} argument${wanted.length === 1 ? '' : 's'} (${wanted.map((p) => `<${p}>`).join(' ')}), ` +
      `but ${given.length} were given: ${given.map((g) => `"${g}"`).join(' ')}.`,
  );
}

/** A flag's value as a positive whole number; throws a `UsageError` naming the flag otherwise. */
export function positiveInteger(flag: string, value: string): number {
  const parsed = digitsValue(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) throw new UsageError(`--${flag} must be a positive whole number, not "${value}".`);
  return parsed;
}

/** A whole number of 0 or more, where 0 means "none". */
export function wholeNumber(flag: string, value: string): number {
  const parsed = digitsValue(value);
  if (!Number.isSafeInteger(parsed)) throw new UsageError(`--${flag} must be a whole number (0 or more), not "${value}".`);
  return parsed;
}

/** The number a string of digits (spaces around allowed) spells; NaN for anything else. */
function digitsValue(value: string): number {
  const text = value.trim();
  return /^\d+$/.test(text) ? Number(text) : NaN;
}
