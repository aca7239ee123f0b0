/**
 * Nothing lost when Copilot compacts by itself, without a ctx model. "Archive Copilot's history before it compacts"
 * asks in a modal dialog before it writes anything; VS Code refuses dialogs in extension tests, so here the command
 * writes nothing, and the test writes the hook file the command writes after a yes (the unit tests cover the yes).
 * The stand-in model is then picked directly in the Chat view; Copilot's agent runs a turn of big results in a small
 * window and compacts its history by itself. Before it does, Copilot runs ctx's hook script, which copies its
 * transcript into ctx's storage. Later in the same turn the agent calls `ctx_recover` and gets back a fact that only
 * the summarized part of the history held.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { hookFileText } from '../../src/copilotHook/hookFile';
import { ctxApi, waitFor } from './ctxClient';
import { pickModel } from './modelPicker';
import { page, selectors } from './page';
import { recordMetric } from './results';
import * as standin from './standin';

const CTX_ID = 'ctx-dev.ctx';
const COPILOT_CHAT_ID = 'github.copilot-chat';
const ARCHIVE_COMMAND = 'ctx.archiveCopilotHistory';
const HOOK_FILE = '.github/hooks/ctx-archive-before-compaction.json';
/** The stand-in's window during this test, in stand-in tokens: a few big results fill it. */
const WINDOW = 24_000;
/** Lines of the stand-in's log per round: about 7k to 10k tokens each. */
const LINES = [300, 400, 300, 400, 300, 400, 300, 400];
/** What only the first round's text says: gone from Copilot's history once it summarized that round. */
const FACT = 'the release train is called saffron-heron-4471';
const QUERY = 'release train saffron-heron';
const REQUEST = 'Read the nightly build log part by part, then tell me what the release train is called.';
const FINAL_ANSWER = 'The release train is called saffron-heron-4471, as noted before the history was summarized.';

/** Settings this test changes, with what it sets them to: restored afterwards. */
const SETTINGS: readonly (readonly [section: string, key: string, value: unknown])[] = [
  ['chat.agent', 'maxRequests', 200],
  // Copilot writes results over 8 KB to files by default: its history would stay small and never be compacted.
  ['github.copilot.chat.agent', 'largeToolResultsToDisk.enabled', false],
];

/** Every text of a recorded request, tool results included. */
function requestText(r: standin.RecordedRequest): string {
  const partText = (p: standin.RecordedPart): string =>
    p.type === 'text' ? p.text : p.type === 'toolResult' ? p.content.map(partText).join('\n') : '';
  return r.messages.map((m) => m.parts.map(partText).join('\n')).join('\n');
}

describe("Copilot's own compaction with ctx's PreCompact hook, no ctx model", function () {
  this.timeout(300_000);
  let wrapped: vscode.LanguageModelChat;
  let windowBefore = 0;
  let hookFile = '';
  let hookText = '';
  const settingsBefore: unknown[] = [];

  before(async function () {
    if (!page.available || !vscode.extensions.getExtension(COPILOT_CHAT_ID)) this.skip();
    await waitFor('Copilot Chat active', () => vscode.extensions.getExtension(COPILOT_CHAT_ID)?.isActive, 30_000);
    const api = await ctxApi();
    const folder = vscode.workspace.workspaceFolders?.[0];
    const ctx = vscode.extensions.getExtension(CTX_ID);
    assert.ok(folder && ctx, 'the tests run in a folder, with ctx');
    hookFile = path.join(folder.uri.fsPath, HOOK_FILE);
    // What the command writes after a yes: this extension host's node runs ctx's script into ctx's inbox.
    hookText = hookFileText({
      runtime: process.execPath,
      script: path.join(ctx.extensionPath, 'dist', 'copilotPreCompactHook.js'),
      inbox: path.join(api.storageRoot, 'copilot-transcripts'),
    });
    wrapped = await standin.model();
    windowBefore = wrapped.maxInputTokens;
    await standin.configure({ maxInputTokens: WINDOW });
    for (const [section, key, value] of SETTINGS) {
      const config = vscode.workspace.getConfiguration(section);
      settingsBefore.push(config.inspect(key)?.globalValue);
      await config.update(key, value, vscode.ConfigurationTarget.Global);
    }
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  after(async () => {
    if (!wrapped) return;
    if (windowBefore > 0) await standin.configure({ maxInputTokens: windowBefore });
    for (const [i, [section, key]] of SETTINGS.entries()) {
      await vscode.workspace.getConfiguration(section).update(key, settingsBefore[i], vscode.ConfigurationTarget.Global);
    }
    fs.rmSync(hookFile, { force: true });
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  it('writes no hook without consent; with the hook, ctx_recover finds a fact from before Copilot compacted, in the same turn', async () => {
    assert.strictEqual(await vscode.commands.executeCommand(ARCHIVE_COMMAND), 'declined', 'the dialog was refused: no consent');
    assert.ok(!fs.existsSync(hookFile), 'nothing written without consent');
    fs.mkdirSync(path.dirname(hookFile), { recursive: true });
    fs.writeFileSync(hookFile, hookText);

    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await pickModel((row) => row.includes(wrapped.name) && !row.includes('(ctx)'), wrapped.name);
    await standin.reset();
    await standin.script(
      [
        { text: `Noted before anything else: ${FACT}.` },
        { toolCall: { callId: 'part-1', name: standin.BIG_RESULT_TOOL, input: { lines: LINES[0] } } },
      ],
      ...LINES.slice(1).map((lines, i): standin.ScriptReply => [
        { text: `Reading part ${i + 2}.` },
        { toolCall: { callId: `part-${i + 2}`, name: standin.BIG_RESULT_TOOL, input: { lines } } },
      ]),
      [{ text: 'Looking up what was noted earlier.' }, { toolCall: { callId: 'recover-1', name: 'ctx_recover', input: { query: QUERY } } }],
      FINAL_ANSWER,
    );

    await vscode.commands.executeCommand('workbench.action.chat.open', { query: REQUEST, mode: 'agent' });
    await waitFor(
      `the ${LINES.length + 2} scripted requests of the turn`,
      async () => ((await standin.requests()).filter((r) => r.scripted).length >= LINES.length + 2 ? true : undefined),
      240_000,
    );
    await page.waitForText(selectors.chatResponses, FINAL_ANSWER, 30_000);
    const sent = await standin.requests();
    await page.screenshot('ctx-copilot-hook-answer');

    assert.ok(
      sent.every((r) => r.from === COPILOT_CHAT_ID),
      `Copilot called the stand-in directly: ${[...new Set(sent.map((r) => r.from))].join(', ')}`,
    );
    const recoverAt = sent.findIndex((r) => r.reply.some((p) => 'toolCall' in p && p.toolCall.name === 'ctx_recover'));
    assert.ok(recoverAt > 0, 'the agent called ctx_recover');
    assert.ok(
      sent[recoverAt].tools.some((t) => t.name === 'ctx_recover'),
      "Copilot offers ctx's recovery tool to a model that is not ctx's",
    );
    const compactions = sent.slice(0, recoverAt).filter((r) => r.callerSummary).length;
    recordMetric('copilotHookCompactions', compactions);
    assert.ok(compactions >= 1, 'Copilot compacted its history before the call');
    assert.ok(!requestText(sent[recoverAt]).includes(FACT), "the fact is gone from Copilot's history after its compaction");

    const answered = sent
      .slice(recoverAt + 1)
      .find((r) => r.messages.some((m) => m.parts.some((p) => p.type === 'toolResult' && p.callId === 'recover-1')));
    assert.ok(answered, 'the next request carries the result of ctx_recover');
    const result = answered.messages.flatMap((m) => m.parts).find((p) => p.type === 'toolResult' && p.callId === 'recover-1');
    const resultText = result && result.type === 'toolResult' ? result.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
    assert.ok(resultText.includes(FACT), `ctx_recover found the fact from before the compaction: ${resultText.slice(0, 400)}`);

    const archived = fs.readdirSync(path.join((await ctxApi()).storageRoot, 'copilot-transcripts'));
    assert.ok(
      archived.some((name) => name.endsWith('.jsonl')),
      `the hook copied Copilot's transcript: ${archived.join(', ')}`,
    );
    assert.strictEqual(await vscode.commands.executeCommand(ARCHIVE_COMMAND), 'declined', 'removing it asks too');
    assert.ok(fs.existsSync(hookFile), 'and without a yes the hook stays');
  });
});
