/** The command line's help text: the contract of its commands and flags, in one place. */
import { TRANSCRIPT_FORMATS } from './transcriptFormats';

/** The default number of search hits shown. */
export const DEFAULT_SEARCH_TOP = 10;

/** Printed by `--help`, and after a usage error. */
export const USAGE = `ctx: replay an agent transcript through the context engine, then search what it stored.

Usage:
  node dist/cli.js replay <transcript> --budget <tokens> --out <dir> [--format <name>] [--json]
  node dist/cli.js search <dir> "<query>" [--top <n>] [--json]
  node dist/cli.js --help

replay  Feeds the transcript's messages one at a time through a ctx session, as the chat
        participant would (each message is added, then the next request is prepared), and
        writes the session's storage to <dir>: sessions/<id>/ (archive, offloaded results,
        state), context.md (the final context as the model would be sent it) and
        replay.json (the figures).
  --budget <tokens>  the model's maximum input tokens, a positive integer; 4,096 of them are
                     kept for the answer, as in the extension
  --out <dir>        the output folder: new, empty, or an earlier replay's (replaced)
  --format <name>    read the transcript as this format instead of detecting it; one of
                     ${TRANSCRIPT_FORMATS.join(', ')}
  --json             print the figures as one JSON object instead of a summary
  Tokens are counted with o200k_base. Claude Code's own compaction summaries are left out
  (ctx does the compressing); of a file with several sessions, the first is replayed.

search  Searches the archive and the offloaded results of the replay in <dir>.
  --top <n>          how many hits to show, a positive integer (default ${DEFAULT_SEARCH_TOP})
  --json             print {"hits": [...]} instead of text

Exit status: 0 on success, 1 on bad input (the reason is printed on stderr), 2 on an
internal error.
`;
