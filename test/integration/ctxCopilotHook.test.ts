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
import { applyGlobalSettings, type SettingChange } from './globalSettings';
import { hookFileText } from '../../src/copilotHook/hookFile';
import { ctxApi, waitFor } from './ctxClient';
import { pickModel } from './modelPicker';
import { page, selectors } from './page';
import { recordMetric } from './results';
import * as standin from './standin';
import { patient } from './patience';

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
/** A line at the end of the second round's result, which Copilot writes to a file: its transcript keeps no results. */
const WRITTEN = 'artifact signature: cobalt-lynx-2207';
const WRITTEN_QUERY = 'artifact signature cobalt-lynx';
const REQUEST = 'Read the nightly build log part by part, then tell me what the release train is called.';
const FINAL_ANSWER = 'The release train is called saffron-heron-4471, as noted before the history was summarized.';

/** Settings this test changes, with what it sets them to: restored afterwards. */
const SETTINGS: readonly SettingChange[] = [
  ['chat.agent', 'maxRequests', 200],
  // Copilot writes results above this size to files: here the 400-line ones (about 38 KB), not the 300-line ones
  // (about 29 KB), so that its history still grows and it compacts, and some results exist only in Copilot's files.
  ['github.copilot.chat.agent', 'largeToolResultsToDisk.enabled', true],
  ['github.copilot.chat.agent', 'largeToolResultsToDisk.thresholdBytes', 33_000],
];

/**
 * Writes the hook file where Copilot reads hooks, and makes VS Code read its hooks again. The workbench keeps its list
 * of hooks until its file watcher reports a change in a hook folder, which code-server on these machines does not
 * deliver for a folder created while it runs (the extension host gets no event either); a change of `chat.useHooks`
 * also makes it read them again. Returns the setting's value before, to put back.
 */
async function writeHookFile(file: string, text: string): Promise<unknown> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  const chat = vscode.workspace.getConfiguration('chat');
  const before = chat.inspect('useHooks')?.globalValue;
  await chat.update('useHooks', true, vscode.ConfigurationTarget.Global);
  return before;
}

/** Every text of a recorded request, tool results included. */
function requestText(r: standin.RecordedRequest): string {
  const partText = (p: standin.RecordedPart): string =>
    p.type === 'text' ? p.text : p.type === 'toolResult' ? p.content.map(partText).join('\n') : '';
  return r.messages.map((m) => m.parts.map(partText).join('\n')).join('\n');
}

/** The text of the result of `callId` in the first request that carries it. */
function resultOf(sent: readonly standin.RecordedRequest[], callId: string): string {
  const parts = sent.flatMap((r) => r.messages.flatMap((m) => m.parts));
  const result = parts.find((p) => p.type === 'toolResult' && p.callId === callId);
  return result && result.type === 'toolResult' ? result.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
}

describe("Copilot's own compaction with ctx's PreCompact hook, no ctx model", function () {
  this.timeout(patient(300_000));
  let wrapped: vscode.LanguageModelChat;
  let windowBefore = 0;
  let hookFile = '';
  let hookText = '';
  let useHooksBefore: unknown;
  let restoreSettings: (() => Promise<void>) | undefined;

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
    restoreSettings = await applyGlobalSettings(SETTINGS);
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  after(async () => {
    if (!wrapped) return;
    if (windowBefore > 0) await standin.configure({ maxInputTokens: windowBefore });
    await restoreSettings?.();
    fs.rmSync(hookFile, { force: true });
    await vscode.workspace.getConfiguration('chat').update('useHooks', useHooksBefore, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  it('writes no hook without consent; with the hook, ctx_recover finds a fact from before Copilot compacted, in the same turn', async () => {
    assert.strictEqual(await vscode.commands.executeCommand(ARCHIVE_COMMAND), 'declined', 'the dialog was refused: no consent');
    assert.ok(!fs.existsSync(hookFile), 'nothing written without consent');
    useHooksBefore = await writeHookFile(hookFile, hookText);

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
        { toolCall: { callId: `part-${i + 2}`, name: standin.BIG_RESULT_TOOL, input: { lines, ...(i === 0 ? { tail: [WRITTEN] } : {}) } } },
      ]),
      [{ text: 'Looking up what was noted earlier.' }, { toolCall: { callId: 'recover-1', name: 'ctx_recover', input: { query: QUERY } } }],
      [
        { text: 'And the artifact signature.' },
        { toolCall: { callId: 'recover-2', name: 'ctx_recover', input: { query: WRITTEN_QUERY } } },
      ],
      FINAL_ANSWER,
    );

    await vscode.commands.executeCommand('workbench.action.chat.open', { query: REQUEST, mode: 'agent' });
    await waitFor(
      `the ${LINES.length + 3} scripted requests of the turn`,
      async () => ((await standin.requests()).filter((r) => r.scripted).length >= LINES.length + 3 ? true : undefined),
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

    const recovered = resultOf(sent, 'recover-1');
    assert.ok(recovered.includes(FACT), `ctx_recover found the fact from before the compaction: ${recovered.slice(0, 400)}`);
    assert.ok(
      sent.some((r) => /Large tool result \(\d+KB\) written to file/.test(requestText(r))),
      'Copilot wrote some results to files and sent the model its note',
    );
    const written = resultOf(sent, 'recover-2');
    assert.ok(written.includes(WRITTEN), `ctx_recover found a result only Copilot's file held: ${written.slice(0, 400)}`);

    const archived = fs.readdirSync(path.join((await ctxApi()).storageRoot, 'copilot-transcripts'));
    assert.ok(
      archived.some((name) => name.endsWith('.jsonl')),
      `the hook copied Copilot's transcript: ${archived.join(', ')}`,
    );
    assert.strictEqual(await vscode.commands.executeCommand(ARCHIVE_COMMAND), 'declined', 'removing it asks too');
    assert.ok(fs.existsSync(hookFile), 'and without a yes the hook stays');
  });
});
