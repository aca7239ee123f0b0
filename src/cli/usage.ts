/** The command line's help text: the contract of its commands and flags, in one place. */
import { TRANSCRIPT_FORMATS } from './transcriptFormats';
import { formatCount } from '../engine/host/display';
import { DEFAULT_BUDGET_CEILING_TOKENS } from '../engine/host/settings';

/** The default number of search hits shown. */
export const DEFAULT_SEARCH_TOP = 10;

/** The names joined with commas, in lines of at most `width` characters. */
function wrapList(names: readonly string[], width: number): string[] {
  const lines: string[] = [];
  for (const [i, name] of names.entries()) {
    const item = i < names.length - 1 ? `${name},` : name;
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + item.length <= width) lines[lines.length - 1] = `${last} ${item}`;
    else lines.push(item);
  }
  return lines;
}

/** Printed by `--help`, and after a usage error. */
export const USAGE = `ctx: replay an agent transcript through the context engine, then search what it stored.

Usage:
  node dist/cli.js replay <transcript> --budget <tokens> --out <dir> [--ceiling <tokens>] [--format <name>] [--json]
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
  --ceiling <tokens> the most the budget is, however large the window, as the extension's
                     ctx.budget.ceilingTokens (default ${formatCount(DEFAULT_BUDGET_CEILING_TOKENS)}); 0 lets the window be the limit
  --format <name>    read the transcript as this format instead of detecting it; one of
                     ${wrapList(TRANSCRIPT_FORMATS, 68).join('\n                     ')}
  --session <n|id>   which conversation of a file that holds several to replay (OpenHands
                     tasks, Claude Code subagents): a number from 1 or an id; default 1
  --json             print the figures as one JSON object instead of a summary
  Tokens are counted with o200k_base. An agent's own compaction summaries are left out
  (ctx does the compressing). What the import skipped, dropped or stood in for is counted
  in the summary and in replay.json (importStats), with a warning for anything unknown.

search  Searches the archive and the offloaded results of the replay in <dir>.
  --top <n>          how many hits to show, a positive integer (default ${DEFAULT_SEARCH_TOP})
  --json             print {"hits": [...]} instead of text

Exit status: 0 on success, 1 on bad input (the reason is printed on stderr), 2 on an
internal error.
`;
