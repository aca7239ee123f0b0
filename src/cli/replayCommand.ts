/** `replay <transcript> --budget <tokens> --out <dir> [--ceiling <tokens>] [--format <name>] [--session <n|id>] [--json]` */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MalformedTranscriptError, TranscriptFormatError } from './import/importErrors';
import { importParsedTranscript } from './import/importTranscript';
import type { ImportResult, TranscriptFormat } from './import/importTypes';
import { MessageFeed } from './replay/messageFeed';
import { renderContext } from './replay/renderContext';
import { replayTranscript } from './replay/replayTranscript';
import { formatCount } from '../engine/host/display';
import { DEFAULT_BUDGET_CEILING_TOKENS } from '../engine/host/settings';
import { LocalTokenizer, rankLoaderFor, TokenCounter } from '../engine/host/ports';
import { FileStore } from '../engine/host/storage';
import { InputError, UsageError } from './cliErrors';
import { positiveInteger, wholeNumber, type CommandSpec, type ParsedCommand } from './commandLine';
import { CONTEXT_FILE, FIGURES_FILE, finishOutputFolder, prepareOutputFolder } from './outputFolder';
import { ProgressBar } from './progressBar';
import { readTranscriptRecords } from './readTranscriptFile';
import { WatchedStore } from './watchedStore';
import { renderReplaySummary, type ReplayReport } from './replayReport';
import { chooseSession, type ChosenSession } from './sessionChoice';
import type { Terminal } from './terminal';
import { TRANSCRIPT_FORMATS, isTranscriptFormat } from './transcriptFormats';

export const REPLAY_COMMAND: CommandSpec = {
  name: 'replay',
  positionals: ['transcript'],
  options: ['budget', 'ceiling', 'out', 'format', 'session'],
  switches: ['json'],
};

/** Warnings printed on stderr after the summary; replay.json has them all. */
const WARNINGS_SHOWN = 10;

interface ReplayArguments {
  readonly transcript: string;
  readonly maxInputTokens: number;
  /** `--ceiling`: the most the budget is, as the extension's `ctx.budget.ceilingTokens`; 0 lifts it. */
  readonly ceilingTokens: number;
  readonly out: string;
  readonly format: TranscriptFormat | undefined;
  /** `--session`: a 1-based number or an id; the first session when absent. */
  readonly session: string | undefined;
  readonly json: boolean;
}

export async function runReplay(parsed: ParsedCommand, terminal: Terminal): Promise<void> {
  const args = replayArguments(parsed);
  const imported = await importFile(args.transcript, args.format);
  const chosen = chooseSession(imported.sessions, args.session, args.transcript);
  if (chosen.session.messages.length === 0) {
    const which = imported.sessions.length > 1 ? `session ${chosen.number} (${chosen.session.id}) of ` : '';
    throw new InputError(`${which}${args.transcript} holds no messages to replay (read as ${imported.format}).`);
  }
  // A replay can be run again from its transcript, so its writes are not synced one by one.
  const store = new WatchedStore(new FileStore(args.out, undefined, { sync: false }));
  const { lock, restarted } = await prepareOutputFolder(args.out, store);
  if (restarted) {
    terminal.err(`An earlier replay into ${args.out} was cut short (killed, or stopped by a full disk); it is started over.\n`);
  }
  try {
    await replayInto(args, imported, chosen, store, terminal);
  } finally {
    await lock.release().catch(() => undefined);
  }
}

async function replayInto(
  args: ReplayArguments,
  imported: ImportResult,
  chosen: ChosenSession,
  store: WatchedStore,
  terminal: Terminal,
): Promise<void> {
  const tokenizer = new LocalTokenizer('o200k_base', rankLoaderFor(__dirname));
  await tokenizer.whenReady();
  const progress = !args.json && terminal.errIsTTY ? new ProgressBar(terminal, 'Replaying') : undefined;
  // Each message waits as bytes outside the heap and is let go of once replayed: the archive keeps it, so no long transcript is held whole.
  const { figures, session, final } = await replayTranscript(
    { format: imported.format, messages: MessageFeed.packed(chosen.session.messages) },
    {
      maxInputTokens: args.maxInputTokens,
      ceilingTokens: args.ceilingTokens,
      store,
      counter: new TokenCounter(tokenizer),
      // A transcript without times is dated by its file, so a replay of the same file names its files the same way.
      ...(await transcriptTime(args.transcript)),
      stopwatch: { now: () => performance.now() },
      onProgress: (p) => progress?.update(p.done, p.total, `${formatCount(p.tokens)} tokens, ${p.level}`),
    },
  );
  progress?.finish();
  if (store.firstFailure !== undefined) {
    session.dispose();
    throw store.firstFailure;
  }

  await store.write(
    CONTEXT_FILE,
    renderContext(final?.messages ?? [], { tokens: figures.finalTokens, budget: figures.budget, level: figures.finalLevel }),
  );
  const report: ReplayReport = {
    ...figures,
    ms: Math.round(figures.ms),
    transcript: path.resolve(args.transcript),
    sessions: imported.sessions.length,
    session: chosen.number,
    transcriptSessionId: chosen.session.id,
    importStats: imported.stats,
    sessionId: session.id,
    out: path.resolve(args.out),
    contextFile: store.locate(CONTEXT_FILE),
    warnings: [
      ...imported.warnings.map((w) => (w.line === undefined ? w.reason : `line ${w.line}: ${w.reason}`)),
      ...session.warnings.map((w) => w.message),
    ],
  };
  session.dispose();
  await store.write(FIGURES_FILE, `${JSON.stringify(report, null, 2)}\n`);
  await finishOutputFolder(args.out);
  if (args.json) {
    terminal.out(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  terminal.out(renderReplaySummary(report));
  for (const warning of report.warnings.slice(0, WARNINGS_SHOWN)) terminal.err(`warning: ${warning}\n`);
  if (report.warnings.length > WARNINGS_SHOWN) {
    terminal.err(`…and ${report.warnings.length - WARNINGS_SHOWN} more warnings in ${store.locate(FIGURES_FILE)}.\n`);
  }
}

function replayArguments(parsed: ParsedCommand): ReplayArguments {
  const budget = parsed.options.get('budget');
  const out = parsed.options.get('out');
  if (budget === undefined) throw new UsageError("replay needs --budget <tokens>: the model's maximum input tokens.");
  if (out === undefined) throw new UsageError('replay needs --out <dir>: the folder to write the session to.');
  const ceiling = parsed.options.get('ceiling');
  const format = parsed.options.get('format');
  if (format !== undefined && !isTranscriptFormat(format)) {
    throw new UsageError(`Unknown format "${format}"; --format takes one of ${TRANSCRIPT_FORMATS.join(', ')}.`);
  }
  return {
    transcript: parsed.positionals[0],
    maxInputTokens: positiveInteger('budget', budget),
    ceilingTokens: ceiling === undefined ? DEFAULT_BUDGET_CEILING_TOKENS : wholeNumber('ceiling', ceiling),
    out,
    format,
    session: parsed.options.get('session'),
    json: parsed.switches.has('json'),
  };
}

/** When the transcript file was last written, as the time a transcript without times starts at; nothing when it cannot be read. */
async function transcriptTime(file: string): Promise<{ startAt?: number }> {
  return fs.promises.stat(file).then(
    (stats) => ({ startAt: stats.mtimeMs }),
    () => ({}),
  );
}

/**
 * Imports strictly: a malformed line stops the replay with its line number rather than being skipped.
 * The file is parsed as it streams in, so a long transcript's text is not held beside its records.
 */
async function importFile(file: string, format: TranscriptFormat | undefined): Promise<ImportResult> {
  try {
    return importParsedTranscript(await readTranscriptRecords(file), {
      ...(format ? { format } : {}),
      onMalformed: 'stop',
      keepNativeCompaction: false,
    });
  } catch (e) {
    if (e instanceof TranscriptFormatError || e instanceof MalformedTranscriptError) throw new InputError(`${file}: ${e.message}`);
    throw e;
  }
}
