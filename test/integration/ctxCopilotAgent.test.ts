/**
 * Copilot's own agent mode through a ctx model, in a real VS Code with Copilot Chat built in (1.139): the user picks
 * "<stand-in> (ctx)" in the Chat view and sends a plain message, which Copilot's default participant runs in Agent
 * mode on the Local harness. The stand-in, scripted, calls its big-result tool round after round (results of 1k–30k
 * tokens in a 60k window); Copilot compacts its history by itself when it sees fit, and the stand-in answers those
 * summarization requests with a summary of its own. What is checked: every request reached the model through ctx
 * and within the window, the whole turn is one ctx session (its checkpoints, ledger and offloads, titled by the
 * user's request), and the final answer is shown in the chat.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { DEFAULT_REPORTED_WINDOW, reportedInputTokens, reportedWindowSetting } from '../../src/engine/relay/reportedWindow';
import { applyGlobalSettings, type SettingChange } from './globalSettings';
import { ctxModelFor } from './caller';
import { ctxApi, waitFor } from './ctxClient';
import { pickModel } from './modelPicker';
import { page, selectors } from './page';
import { recordMetric, resultFilePath } from './results';
import * as standin from './standin';
import { patient } from './patience';

const CTX_ID = 'ctx-dev.ctx';
/** Copilot Chat, built into VS Code since 1.13x: its default participant is the agent under test. */
const COPILOT_CHAT_ID = 'github.copilot-chat';
/** The window of the stand-in during this test, in stand-in tokens. */
const WINDOW = 60_000;
/**
 * Lines of the stand-in's log per round, in a fixed order: about 1k to 30k tokens each. Most stay under a twentieth of
 * the window, so ctx keeps them whole and the window fills round by round to its checkpoints; two go to files on
 * arrival.
 */
const LINES = [50, 40, 1250, 45, 35, 50, 640, 40];
const ROUNDS = 48;
const REQUEST = 'Read every part of the nightly build log, one call per part, and sum it up.';
const FINAL_ANSWER = `All ${ROUNDS} parts of the nightly build log are read: every module compiled.`;
/**
 * The window ctx reports to Copilot (`ctx.models.reportedWindow`): the default unless CTX_TEST_REPORTED_WINDOW names
 * the other value (`run-integration.js --env CTX_TEST_REPORTED_WINDOW=model`), to measure how often Copilot compacts
 * with each. It is written before the chat starts even when it is the default: writing a ctx model setting is what
 * makes ctx list its models again, with the stand-in's new window.
 */
const REPORTED_WINDOW = reportedWindowSetting(process.env.CTX_TEST_REPORTED_WINDOW);
/** What ctx then reports for the stand-in's window (eight times it with `extended`). */
const REPORTED_TOKENS = reportedInputTokens(WINDOW, REPORTED_WINDOW);
/** How long a provider keeps a prompt in its cache after its last use (Anthropic's default: five minutes). */
const PROMPT_CACHE_LIFETIME_MS = 5 * 60_000;
/** Messages a round adds (the answer with its call, the result), with one to spare. */
const MAX_MESSAGES_SINCE = 3;
/**
 * ctx's summary requests that may not repeat a request of the conversation: one prepared beside a request that rewrote
 * the context finds nothing of it cached yet (all of 3, and 6 or 7 of 7 with larger results, in measured runs).
 */
const MAX_SUMMARIES_NOT_REPEATING = 1;
/** With the default, Copilot leaves the compressing to ctx: at most this many summarizations of its own in the turn. */
const MAX_COMPACTIONS_AT_DEFAULT = 1;
/**
 * Share of each request's characters that repeat the request before, as its leading messages (92.5% measured: only
 * ctx's two checkpoints and Copilot's own summary rewrite what was sent).
 */
const MIN_PREFIX_REUSED = 0.9;

/** Settings this test changes, with what it sets them to: restored afterwards. */
const SETTINGS: readonly SettingChange[] = [
  // Copilot stops an agent turn after this many requests (50 by default), compactions included.
  ['chat.agent', 'maxRequests', 200],
  // By default Copilot writes every tool result over 8 KB to a file and sends the model a note instead: ctx would
  // never see the results this test is about.
  ['github.copilot.chat.agent', 'largeToolResultsToDisk.enabled', false],
  // Any change of ctx's model settings makes ctx list its models again, with the stand-in's new window.
  ['ctx.models', 'reportedWindow', REPORTED_WINDOW],
];

/** Stand-in tokens of a text, as the stand-in counts them. */
const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** The stand-in's log of `lines` lines, as its tool returns it. */
async function bigResult(lines: number): Promise<string> {
  const result = await vscode.lm.invokeTool(standin.BIG_RESULT_TOOL, { input: { lines }, toolInvocationToken: undefined });
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/** The session log's lines of one kind (`- <time> · <kind> · <detail>`). */
function logged(storageRoot: string, sessionId: string, kind: string): string[] {
  const file = path.join(storageRoot, 'sessions', sessionId, 'session-log.md');
  const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : [];
  return lines.filter((l) => l.split(' · ')[1] === kind);
}

/** A part in a line: its kind, and for a text its length, start and end. */
function partLine(p: standin.RecordedPart): string {
  if (p.type === 'text') return `text(${p.text.length}) ${JSON.stringify(p.text.slice(0, 70))}…${JSON.stringify(p.text.slice(-50))}`;
  return p.type === 'toolCall' || p.type === 'toolResult' ? `${p.type} ${p.callId}` : p.type;
}

/** One request as the stand-in received it: what a reader needs to see how the caller sent its history. */
function shape(r: standin.RecordedRequest): object {
  return {
    index: r.index,
    callerSummary: r.callerSummary,
    inputTokens: r.inputTokens,
    tools: r.tools.length,
    messages: r.messages.map((m) => `${m.role[0]} ${m.parts.map(partLine).join(' + ')}`),
  };
}

/**
 * A message as the prompt cache compares it: its role and every part, in order, but a cache breakpoint, which marks
 * where a cached prefix ends and is no part of it.
 */
const cacheKey = (m: standin.RecordedRequest['messages'][number]) =>
  JSON.stringify([m.role, m.parts.filter((p) => !(p.type === 'data' && p.mimeType === 'cache_control'))]);

/** What each request (after the first, Copilot's own summarization requests left out) kept of the one before. */
interface PrefixFigures {
  /** Share of the characters sent in leading messages the request before sent the same: what a prompt cache reads. */
  readonly reused: number;
  /** Share of the characters of the request before that the next one starts with (1 while requests only append). */
  readonly kept: number;
  /** Requests that started with the whole of the request before. */
  readonly appends: number;
  readonly requests: number;
}

function prefixFigures(requests: readonly standin.RecordedRequest[]): PrefixFigures {
  let reused = 0;
  let sent = 0;
  let before = 0;
  let appends = 0;
  let compared = 0;
  let previous: { keys: string[]; chars: number } | undefined;
  for (const r of requests.filter((x) => !x.callerSummary)) {
    const keys = r.messages.map(cacheKey);
    const sizes = r.messages.map((m) => m.text.length);
    const chars = sizes.reduce((a, b) => a + b, 0);
    if (previous) {
      let same = 0;
      while (same < keys.length && same < previous.keys.length && keys[same] === previous.keys[same]) same++;
      reused += sizes.slice(0, same).reduce((a, b) => a + b, 0);
      sent += chars;
      before += previous.chars;
      compared++;
      if (same === previous.keys.length) appends++;
    }
    previous = { keys, chars };
  }
  return { reused: sent > 0 ? reused / sent : 0, kept: before > 0 ? reused / before : 0, appends, requests: compared };
}

/** Requests that carry a cache breakpoint as Copilot's models take it: a data part of mime type `cache_control`. */
const withBreakpoints = (requests: readonly standin.RecordedRequest[]) =>
  requests.filter((r) => r.messages.some((m) => m.parts.some((p) => p.type === 'data' && p.mimeType === 'cache_control')));

describe("Copilot's agent mode through a ctx model", function () {
  this.timeout(patient(360_000));
  let wrapped: vscode.LanguageModelChat;
  let windowBefore = 0;
  let restoreSettings: (() => Promise<void>) | undefined;

  before(async function () {
    // Only where Copilot Chat is built in (1.139), and with a page to pick the model in.
    if (!page.available || !vscode.extensions.getExtension(COPILOT_CHAT_ID)) this.skip();
    // The chat setup turns Copilot on: it activates a moment later.
    await waitFor('Copilot Chat active', () => vscode.extensions.getExtension(COPILOT_CHAT_ID)?.isActive, 30_000);
    await ctxApi();
    wrapped = await standin.model();
    await standin.reset();
    windowBefore = wrapped.maxInputTokens;
    await standin.configure({ maxInputTokens: WINDOW });
    restoreSettings = await applyGlobalSettings(SETTINGS);
    await waitFor(`the ctx model reporting a ${REPORTED_TOKENS}-token window`, async () => {
      const info = await ctxModelFor(wrapped);
      return info.maxInputTokens === REPORTED_TOKENS ? info : undefined;
    });
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await pickModel((row) => row.includes(`${wrapped.name} (ctx)`), wrapped.name);
  });

  after(async () => {
    if (!wrapped) return;
    // The stand-in's window first: putting ctx's setting back makes ctx list its models again, with that window.
    if (windowBefore > 0) await standin.configure({ maxInputTokens: windowBefore });
    await restoreSettings?.();
    const reportedBefore = reportedInputTokens(windowBefore, DEFAULT_REPORTED_WINDOW);
    await waitFor(`the ctx model with the stand-in's window again`, async () => {
      const info = await ctxModelFor(wrapped);
      return info.maxInputTokens === reportedBefore ? info : undefined;
    });
    // Later tests talk to the stand-in through the Chat view: give it back its model, in a new chat.
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await pickModel((row) => row.includes(wrapped.name) && !row.includes('(ctx)'), wrapped.name);
  });

  it('runs 48 tool rounds of 1k–30k-token results in a 60k window: every request within it, one ctx session, the answer shown', async () => {
    const sizes = [tokensOf(await bigResult(Math.min(...LINES))), tokensOf(await bigResult(Math.max(...LINES)))];
    assert.ok(sizes[0] >= 800 && sizes[1] <= 30_000, `results of ${sizes.join(' to ')} tokens`);
    await standin.reset();
    const api = await ctxApi();
    await api.whenIdle();
    const folder = path.join(api.storageRoot, 'sessions');
    const sessionsBefore = new Set(fs.existsSync(folder) ? fs.readdirSync(folder) : []);
    await standin.script(
      ...Array.from({ length: ROUNDS }, (_, i): standin.ScriptReply => [
        { text: `Reading part ${i + 1}.` },
        { toolCall: { callId: `part-${i + 1}`, name: standin.BIG_RESULT_TOOL, input: { lines: LINES[i % LINES.length] } } },
      ]),
      FINAL_ANSWER,
    );

    const started = Date.now();
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: REQUEST, mode: 'agent' });
    const answered = await waitFor(
      `the ${ROUNDS + 1} scripted requests of the turn`,
      async () => {
        const all = await standin.requests();
        return all.filter((r) => r.scripted).length >= ROUNDS + 1 ? all : undefined;
      },
      300_000,
    );
    const seconds = (Date.now() - started) / 1000;
    await page.waitForText(selectors.chatResponses, FINAL_ANSWER, 30_000);
    await api.whenIdle();
    const sent = await standin.requests();
    // What Copilot sent, request by request, beside the result file: how its history looks after a compaction.
    fs.writeFileSync(`${resultFilePath()}.copilot-agent-requests.json`, JSON.stringify(sent.map(shape), null, 1));
    await page.screenshot('ctx-copilot-agent-answer');

    const created = fs.readdirSync(folder).filter((id) => !sessionsBefore.has(id));
    const compactions = sent.filter((r) => r.callerSummary).length;
    const maxTokens = Math.max(...sent.map((r) => r.inputTokens));
    recordMetric('copilotAgentRounds', ROUNDS);
    recordMetric('copilotAgentRequests', sent.length);
    recordMetric('copilotAgentMaxRequestTokens', maxTokens);
    recordMetric('copilotAgentCompactions', compactions);
    recordMetric('copilotAgentReportedWindow', REPORTED_TOKENS);
    recordMetric('copilotAgentCtxSessions', created.length);
    recordMetric('copilotAgentSecondsPerRound', Number((seconds / ROUNDS).toFixed(2)));
    recordMetric('copilotAgentSeconds', Number(seconds.toFixed(1)));
    const prefix = prefixFigures(sent);
    const marked = withBreakpoints(sent).length;
    recordMetric('copilotAgentPrefixReused', Number(prefix.reused.toFixed(3)));
    recordMetric('copilotAgentPrefixKept', Number(prefix.kept.toFixed(3)));
    recordMetric('copilotAgentAppendOnlyRequests', `${prefix.appends} of ${prefix.requests}`);
    recordMetric('copilotAgentRequestsWithCacheBreakpoints', marked);

    assert.ok(answered.length >= ROUNDS + 1);
    assert.ok(
      sent.every((r) => r.from === CTX_ID),
      `every request went through ctx: ${[...new Set(sent.map((r) => r.from))].join(', ')}`,
    );
    assert.ok(
      sent.every((r) => r.inputTokens <= WINDOW),
      `every request within the ${WINDOW}-token window: ${sent.map((r) => r.inputTokens).join(', ')}`,
    );
    if (REPORTED_WINDOW === DEFAULT_REPORTED_WINDOW) {
      assert.ok(
        compactions <= MAX_COMPACTIONS_AT_DEFAULT,
        `with the default window Copilot leaves the compressing to ctx: it summarized its history ${compactions} times`,
      );
    }
    // Between two checkpoints each request is the one before plus the new messages (21% of each request repeated the
    // one before when ctx rebuilt its first message for every request).
    assert.ok(prefix.reused >= MIN_PREFIX_REUSED, `${(prefix.reused * 100).toFixed(1)}% of each request repeated the one before`);
    assert.ok(prefix.appends >= prefix.requests * 0.85, `${prefix.appends} of ${prefix.requests} requests only appended`);
    assert.ok(marked >= sent.length - compactions, `cache breakpoints reached the model in ${marked} of ${sent.length} requests`);
    // ctx's checkpoint summaries are asked of the same model as the conversation's next request: each one is a request
    // of the conversation sent within the cache's lifetime (the one before it, the one before a checkpoint applied
    // while the model wrote, or the one it was asked beside), message for message and with its tools, then what came
    // since (a round at most) and the question.
    const summaries = (await standin.summaryRequests()).filter((r) => r.atMs >= started);
    const conversation = sent.filter((x) => !x.callerSummary);
    const repeating = summaries.filter((r) => {
      const keys = r.messages.map(cacheKey);
      return conversation.some(
        (x) =>
          Math.abs(r.atMs - x.atMs) <= PROMPT_CACHE_LIFETIME_MS &&
          x.messages.length <= keys.length &&
          keys.length - x.messages.length <= MAX_MESSAGES_SINCE &&
          x.messages.every((m, i) => cacheKey(m) === keys[i]) &&
          JSON.stringify(x.tools.map((t) => t.name)) === JSON.stringify(r.tools),
      );
    });
    recordMetric('copilotAgentSummaryRequests', summaries.length);
    recordMetric('copilotAgentSummaryRequestsRepeatingTheConversation', repeating.length);
    assert.ok(summaries.length >= 2, `ctx asked the model for checkpoint summaries: ${summaries.length}`);
    const unmatched = summaries
      .filter((r) => !repeating.includes(r))
      .map((r) => {
        const keys = r.messages.map(cacheKey);
        const shared = (x: standin.RecordedRequest) => {
          let n = 0;
          while (n < x.messages.length && n < keys.length && cacheKey(x.messages[n]) === keys[n]) n++;
          return `${n}/${x.messages.length}@${x.atMs - r.atMs}ms`;
        };
        return `${keys.length} messages, ${r.tools.length} tools; shared with the requests: ${conversation.map(shared).join(' ')}`;
      });
    // A summary prepared beside a request that rewrote the context (a model summary landing) finds nothing of the
    // rewritten part in the cache yet; nearly all the others repeat a request just sent.
    assert.ok(
      summaries.length - repeating.length <= MAX_SUMMARIES_NOT_REPEATING,
      `${repeating.length} of ${summaries.length} summary requests repeated a request of the conversation; not: ${unmatched.join(' | ')}`,
    );
    const calls = (await standin.toolInvocations()).filter((i) => i.name === standin.BIG_RESULT_TOOL);
    assert.strictEqual(calls.length, ROUNDS, 'Copilot ran the tool every round');
    assert.ok(!sent.some((r) => r.messages.some((m) => /Large tool result \(\d+KB\) written to file/.test(m.text))), 'ctx got the results');

    assert.strictEqual(created.length, 1, `one ctx session for the turn, not ${created.length}: ${created.join(', ')}`);
    const [sessionId] = created;
    assert.strictEqual(api.currentSessionId(), sessionId);
    const checkpoints = logged(api.storageRoot, sessionId, 'checkpoint-created').length;
    const offloads = logged(api.storageRoot, sessionId, 'offload').length;
    recordMetric('copilotAgentCtxCheckpoints', checkpoints);
    recordMetric('copilotAgentCtxOffloads', offloads);
    assert.ok(checkpoints >= 1, `ctx made checkpoints in the session: ${checkpoints}`);
    assert.ok(offloads >= 1, `ctx offloaded results: ${offloads}`);
    const model = await api.dashboardModel();
    assert.strictEqual(model?.title, REQUEST, "the session is titled by the user's request");
    // ctx's context message follows Copilot's instructions (sent first, as a user message).
    const last = sent.filter((r) => !r.callerSummary).at(-1);
    const context = last?.messages.find((m) => m.text.startsWith('# Context kept by ctx'))?.text ?? '';
    assert.match(context, /### Session intent\n/, 'the last request carries the ledger');
    assert.ok(context.includes(REQUEST), "the ledger keeps the user's request");
    assert.match(context, /## Checkpoint \d+ · /, 'and the checkpoints');
  });
});
