/** The command line's dispatcher: parses, runs one command, and turns failures into an exit status. */
import { StorageError, storageReasonWords } from '../engine/host/storage';
import { EXIT_BAD_INPUT, EXIT_INTERNAL_ERROR, EXIT_OK, InputError, UsageError } from './cliErrors';
import { parseCommandLine } from './commandLine';
import { REPLAY_COMMAND, runReplay } from './replayCommand';
import { SEARCH_COMMAND, runSearch } from './searchCommand';
import type { Terminal } from './terminal';
import { USAGE } from './usage';

/** Runs the command line with the arguments after the script's name; resolves to the exit status. */
export async function runCli(argv: readonly string[], terminal: Terminal): Promise<number> {
  try {
    const line = parseCommandLine(argv, [REPLAY_COMMAND, SEARCH_COMMAND]);
    if (line.kind === 'help') {
      terminal.out(USAGE);
      return EXIT_OK;
    }
    if (line.command === REPLAY_COMMAND.name) await runReplay(line, terminal);
    else await runSearch(line, terminal);
    return EXIT_OK;
  } catch (e) {
    if (e instanceof UsageError) {
      terminal.err(`ctx: ${e.message}\nRun "node dist/cli.js --help" for usage.\n`);
      return EXIT_BAD_INPUT;
    }
    if (e instanceof InputError) {
      terminal.err(`ctx: ${e.message}\n`);
      return EXIT_BAD_INPUT;
    }
    if (e instanceof StorageError) {
      terminal.err(`ctx: ${storageSentence(e)}\n`);
      return EXIT_BAD_INPUT;
    }
    terminal.err(`ctx: internal error, please report it: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return EXIT_INTERNAL_ERROR;
  }
}

/** A storage failure on one line: what could not be done, where, and why in plain words. */
function storageSentence(e: StorageError): string {
  const why = storageReasonWords(e) ?? (e.cause instanceof Error ? e.cause.message : String(e.cause));
  return `Could not ${e.operation} ${e.path}: ${why}.`;
}
