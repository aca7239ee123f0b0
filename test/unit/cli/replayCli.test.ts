import { EARLIER_LINES_HEADING } from '../../../src/engine/checkpoints/earlierLines';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Archive } from '../../../src/engine/archive';
import { budgetFor } from '../../../src/engine/budget';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { LEVELS } from '../../../src/engine/levels';
import type { RecoveryHit } from '../../../src/engine/model/recoveryTypes';
import { sessionPaths } from '../../../src/engine/model/sessionPaths';
import { peekSessionState } from '../../../src/engine/storage/sessionJournal';
import { systemClock } from '../../../src/engine/ports';
import { FileStore } from '../../../src/engine/storage/fileStore';
import { readProbes, transcriptPath } from '../import/realTranscripts';
import { buildCli, runBuiltCli, TemporaryFolders } from './builtCli';
import { rankOfProbe } from './probeHits';

/** Every figure `replay --json` promises, with its type. */
const NUMBER_FIELDS = [
  'messages',
  'toolCalls',
  'inputTokens',
  'maxInputTokens',
  'budget',
  'peakTokens',
  'finalTokens',
  'finalUsage',
  'offloaded',
  'truncated',
  'watermarked',
  'checkpoints',
  'snapshots',
  'ms',
  'sessions',
  'session',
];
const STRING_FIELDS = ['format', 'finalLevel', 'transcript', 'sessionId', 'transcriptSessionId', 'out', 'contextFile'];

const CASES = [
  { file: 'cc__vscode-copilot-chat__30530d66-37fb-4f3b-aa5f-d92b6a8afae2.jsonl', budget: 20_000 },
  { file: 'sweagent__marshmallow-1867__function_calling_replace_from_source.traj', budget: 6_000 },
  { file: 'cline__sdk_session.messages.json', budget: 12_000 },
  { file: 'copilot__vscode-chat-logs__fix-deploy.json', budget: 16_000 },
  { file: 'gemini__codemie-code__session-2026-01-16T11-01-file-ops-37b7abef.json', budget: 8_000 },
  { file: 'codex__codemie-code__rollout-2026-05-11T11-26-55-019e1625.jsonl', budget: 60_000 },
];

describe('the replay command on real transcripts', function () {
  this.timeout(120_000);
  const temporary = new TemporaryFolders();
  before(buildCli);
  after(() => temporary.removeAll());

  for (const c of CASES) {
    describe(c.file, () => {
      const transcript = transcriptPath(c.file);
      const imported = importTranscript(fs.readFileSync(transcript, 'utf8'), { keepNativeCompaction: false });
      let out: string;
      let report: Record<string, unknown>;

      before(() => {
        out = path.join(temporary.make('replay'), 'out');
        const run = runBuiltCli(['replay', transcript, '--budget', String(c.budget), '--out', out, '--json']);
        assert.equal(run.status, 0, run.stderr);
        assert.equal(run.stderr, '', 'nothing on stderr: no progress bar without a terminal, no warnings for these files');
        report = JSON.parse(run.stdout) as Record<string, unknown>;
      });

      it('prints one JSON object with every figure, and writes the same to replay.json', () => {
        for (const field of NUMBER_FIELDS) assert.equal(typeof report[field], 'number', `${field} is a number`);
        for (const field of STRING_FIELDS) assert.equal(typeof report[field], 'string', `${field} is a string`);
        assert.deepEqual(report.importStats, imported.stats, 'importStats is what the import counted');
        assert.ok(Array.isArray(report.warnings));
        assert.deepEqual(JSON.parse(fs.readFileSync(path.join(out, 'replay.json'), 'utf8')), report);
      });

      it('reports what the importer read and sane token figures', () => {
        const calls = imported.messages.reduce((n, m) => n + m.blocks.filter((b) => b.type === 'toolCall').length, 0);
        assert.equal(report.format, imported.format);
        assert.equal(report.messages, imported.messages.length);
        assert.equal(report.toolCalls, calls);
        assert.equal(report.toolCalls, imported.stats.toolCalls);
        assert.equal(report.budget, budgetFor({ maxInputTokens: c.budget }));
        const input = report.inputTokens as number;
        const peak = report.peakTokens as number;
        const final = report.finalTokens as number;
        assert.ok(input > 0, 'inputTokens > 0');
        assert.ok(final <= peak, `final ${final} ≤ peak ${peak}`);
        assert.ok(peak <= input, `peak ${peak} ≤ input ${input}: compression never grows the context`);
        assert.ok(Math.abs((report.finalUsage as number) - final / (report.budget as number)) < 1e-9);
        assert.ok((LEVELS as readonly unknown[]).includes(report.finalLevel), `level ${String(report.finalLevel)}`);
        for (const field of ['offloaded', 'truncated', 'watermarked', 'checkpoints', 'snapshots', 'ms']) {
          assert.ok(Number.isInteger(report[field]) && (report[field] as number) >= 0, `${field} is a whole number ≥ 0`);
        }
      });

      it('leaves the whole conversation in the archive and the final context in context.md', async () => {
        const store = new FileStore(out);
        const paths = sessionPaths(report.sessionId as string);
        const archived = await new Archive(store, paths.archive).read();
        assert.deepEqual(archived.unreadableLines, []);
        assert.deepEqual(archived.messages, imported.messages, 'the archive holds every imported message as it arrived');
        const state = await peekSessionState(store, report.sessionId as string, systemClock);
        assert.ok(state, 'the state (state.json and its journal) is a valid session state');
        assert.equal(state.offloads.length, report.offloaded);
        for (const offload of state.offloads) assert.ok(fs.existsSync(store.locate(offload.file)), `${offload.file} exists`);
        const context = fs.readFileSync(path.join(out, 'context.md'), 'utf8');
        assert.equal(report.contextFile, path.join(out, 'context.md'));
        assert.match(context, /^# Context sent to the model\n/);
        const contextMessages =
          state.active.length +
          (state.checkpoints.length > 0 || state.watermark || state.ledger.goals.length > 0 || context.includes(EARLIER_LINES_HEADING)
            ? 1
            : 0);
        assert.equal(
          context.match(/^## \d+\. (system|user|assistant|tool)\b/gm)?.length,
          contextMessages,
          'one section per message of the final context',
        );
      });

      it('finds a probe string of the transcript in the top 3 hits of search --json', async () => {
        const store = new FileStore(out);
        const archive = (await new Archive(store, sessionPaths(report.sessionId as string).archive).read()).messages;
        const probes = readProbes().filter((p) => p.file === c.file);
        assert.ok(probes.length > 0);
        const ranks: (number | undefined)[] = [];
        for (const probe of probes) {
          const run = runBuiltCli(['search', out, probe.probe, '--top', '3', '--json']);
          assert.equal(run.status, 0, run.stderr);
          const { hits } = JSON.parse(run.stdout) as { hits: RecoveryHit[] };
          assert.ok(hits.length <= 3);
          for (const hit of hits) {
            assert.ok(['archive', 'offloaded', 'checkpoint'].includes(hit.source));
            assert.equal(typeof hit.ref, 'string');
            assert.equal(typeof hit.score, 'number');
            assert.equal(typeof hit.excerpt, 'string');
          }
          ranks.push(await rankOfProbe(hits, probe.probe, store, archive));
        }
        assert.ok(
          ranks.some((r) => r !== undefined),
          `some probe in the top 3 (ranks ${ranks.join(', ')})`,
        );
      });
    });
  }

  it('prints a readable summary without --json, and replaces an earlier replay in the same folder', () => {
    const out = temporary.make('summary');
    const transcript = transcriptPath(CASES[0].file);
    for (let i = 0; i < 2; i++) {
      const run = runBuiltCli(['replay', transcript, '--budget', '20000', '--out', out]);
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^Replayed .* \(claude-code\): 43 messages, 25 tool calls\.\n/);
      assert.match(run.stdout, /Budget: +15,904 tokens/);
      assert.match(run.stdout, /\nCache: +\d+% of the tokens sent repeated the request before \(\d+ requests, \d+ rewrites?/);
      assert.doesNotMatch(run.stdout, /^\{/);
    }
    assert.equal(fs.readdirSync(path.join(out, 'sessions')).length, 1, 'the second replay replaced the first');
  });

  it('dates a transcript without times by its file, so two replays of it name the session and its files alike', () => {
    const copy = path.join(temporary.make('timeless'), 'session.traj');
    fs.copyFileSync(transcriptPath(CASES[1].file), copy);
    const written = new Date(Date.UTC(2026, 2, 14, 9, 26, 0));
    fs.utimesSync(copy, written, written);
    const replayed = () => {
      const out = path.join(temporary.make('timeless-out'), 'out');
      const run = runBuiltCli(['replay', copy, '--budget', '6000', '--out', out, '--json']);
      assert.equal(run.status, 0, run.stderr);
      const sessionId = (JSON.parse(run.stdout) as { sessionId: string }).sessionId;
      const files = fs.readdirSync(path.join(out, 'sessions', sessionId, 'offloaded')).sort();
      return { sessionId, files };
    };
    const first = replayed();
    const again = replayed();
    assert.match(first.sessionId, /^s-20260314-092600-/, 'the session is named for when the file was written');
    assert.ok(first.files.length > 0, 'the replay offloaded results');
    assert.deepEqual(again, first);
  });

  it('caps the budget at the default ceiling of the extension in a 1M-token window, at --ceiling, and not at all with --ceiling 0', () => {
    const transcript = transcriptPath(CASES[0].file);
    const replay = (...ceiling: string[]) => {
      const run = runBuiltCli([
        'replay',
        transcript,
        '--budget',
        '1000000',
        '--out',
        path.join(temporary.make('ceiling'), 'out'),
        ...ceiling,
      ]);
      assert.equal(run.status, 0, run.stderr);
      return run.stdout;
    };
    const byDefault = replay();
    assert.match(
      byDefault,
      /Budget: +200,000 tokens \(from 1,000,000 maximum input tokens, less the answer reserve, at most the ceiling; --ceiling 0 lifts it\)/,
    );
    assert.match(replay('--ceiling', '50000'), /Budget: +50,000 tokens \(.*at most the ceiling/);
    const lifted = replay('--ceiling', '0');
    assert.match(lifted, /Budget: +995,904 tokens \(from 1,000,000 maximum input tokens, less the answer reserve\)\n/);
    const json = JSON.parse(
      runBuiltCli([
        'replay',
        transcript,
        '--budget',
        '300000',
        '--ceiling',
        '250000',
        '--out',
        path.join(temporary.make('ceiling'), 'out'),
        '--json',
      ]).stdout,
    ) as Record<string, unknown>;
    assert.equal(json.budget, 250_000);
    assert.equal(json.ceilingTokens, 250_000);
    const under = runBuiltCli(['replay', transcript, '--budget', '20000', '--out', path.join(temporary.make('ceiling'), 'out')]);
    assert.match(
      under.stdout,
      /Budget: +15,904 tokens \(from 20,000 maximum input tokens, less the answer reserve\)\n/,
      'a window under the ceiling is the limit',
    );
  });

  it('searches in text mode, with the source, the reference, the score and an excerpt', () => {
    const out = path.join(temporary.make('search'), 'out');
    assert.equal(runBuiltCli(['replay', transcriptPath(CASES[0].file), '--budget', '20000', '--out', out]).status, 0);
    const run = runBuiltCli(['search', out, 'gemini-cli', '--top', '2']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^2 hits for "gemini-cli", best first:\n\n1\. (archive|offloaded) · \S+.* · score \d+\.\d\d\n {3}\S/);
    const none = runBuiltCli(['search', out, 'zzqqxxyyww']);
    assert.equal(none.status, 0);
    assert.equal(none.stdout, 'No hits for "zzqqxxyyww".\n');
  });
});
