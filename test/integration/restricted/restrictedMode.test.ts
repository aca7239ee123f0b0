/**
 * ctx in Restricted Mode, in a real VS Code whose workspace is not trusted (a run of its own: the harness
 * starts code-server with Workspace Trust on, see `--restricted-mode`). ctx activates, says what is off,
 * compresses a long tool run, offers the model only its own tools and the attached one, leaves the
 * workspace's instruction files out, installs no Copilot hook, and brings the instruction files in once the user
 * trusts the workspace.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { askCtx, ctxApi, CTX_EXTENSION_ID, waitFor } from '../ctxClient';
import { dismissNotifications, seeNotification } from '../notifications';
import { page, selectors } from '../page';
import * as standin from '../standin';
import { patient } from '../patience';

const AGENTS_RULE = 'Answer every question with a haiku about the build.';
const TRUST_BUTTON = '.workspace-trust-editor .monaco-button:text-is("Trust")';

function workspaceUri(relative: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the harness opens a workspace folder');
  return vscode.Uri.joinPath(folder.uri, ...relative.split('/'));
}

const resultOf = (request: standin.RecordedRequest, callId: string) =>
  request.messages.flatMap((m) => m.parts).find((p) => p.type === 'toolResult' && p.callId === callId);

describe('ctx in Restricted Mode', function () {
  this.timeout(patient(90_000));

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await page.screenshot(`restricted-mode-failed-${this.currentTest.title.slice(0, 40)}`);
  });

  before(async () => {
    await vscode.workspace.fs.writeFile(workspaceUri('AGENTS.md'), new TextEncoder().encode(`# Agent notes\n\n${AGENTS_RULE}\n`));
    await standin.reset();
  });

  it('activates in an untrusted workspace and names what is off there', async () => {
    assert.strictEqual(vscode.workspace.isTrusted, false, 'the harness opened the workspace untrusted');
    const api = await ctxApi();
    assert.strictEqual(vscode.extensions.getExtension(CTX_EXTENSION_ID)?.isActive, true, 'ctx activated');
    assert.ok(api.storageRoot.length > 0, 'with its storage');
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@ctx /status' });
    const report = await page.waitForText(selectors.chatResponses, /Restricted Mode[\s\S]*Trust the workspace to turn them on/, 20000);
    assert.match(report, /instruction files[\s\S]*not read/);
    assert.match(report, /only ctx's own tools and the tools you attach with #/);
    await page.screenshot('ctx-restricted-mode-status');
  });

  it("compresses a long tool run there, offering only ctx's tools and the attached one, and runs no other tool", async () => {
    const lines = [78, 300, 70, 78, 600, 74, 78, 78, 150, 78];
    await standin.script(
      ...lines.map((n, i): standin.ScriptReply => [
        { toolCall: { callId: `log-${i + 1}`, name: standin.BIG_RESULT_TOOL, input: { lines: n } } },
      ]),
      [{ toolCall: { callId: 'lint-1', name: standin.RUN_COMMAND_TOOL, input: { command: 'npm run lint' } } }],
      'Read every log.',
    );
    const sent = await askCtx(`${standin.BIG_RESULT_REFERENCE} read the build logs part by part`, lines.length + 2);
    for (const request of sent.slice(1)) {
      const offered = request.tools.map((t) => t.name);
      assert.ok(
        offered.every((name) => name.startsWith('ctx_') || name === standin.BIG_RESULT_TOOL),
        `only ctx's tools and the attached one: ${offered.join(', ')}`,
      );
    }
    assert.ok(!sent[0].messages[0].text.includes(AGENTS_RULE), "the workspace's instruction file is not in the context");
    const refused = resultOf(sent[sent.length - 1], 'lint-1');
    assert.ok(refused && refused.type === 'toolResult', 'the command got a result');
    assert.match(
      JSON.stringify(refused.content),
      /Not run: ctxStandin_runCommand was not offered because the workspace is in Restricted Mode/,
    );
    const ran = await standin.toolInvocations();
    assert.ok(!ran.some((i) => i.name === standin.RUN_COMMAND_TOOL), 'the tool that was not offered did not run');
    assert.strictEqual(ran.filter((i) => i.name === standin.BIG_RESULT_TOOL).length, lines.length);
    const answer = await page.waitForText(
      selectors.chatResponses,
      /Compressed \d+ times in this answer, [\d,]+ tokens saved: \d+ results? offloaded/,
    );
    assert.match(answer, /Read every log\./);
  });

  it('installs no Copilot hook there: the command says to trust the workspace first and writes nothing', async () => {
    const outcome = await vscode.commands.executeCommand('ctx.archiveCopilotHistory');
    assert.strictEqual(outcome, 'untrusted');
    await seeNotification(/trust this workspace first\. A hook runs a command on your machine/);
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.stat(workspaceUri('.github/hooks/ctx-archive-before-compaction.json'))),
      'no hook file',
    );
    await dismissNotifications();
  });

  it('reads the instruction files once the user trusts the workspace', async () => {
    await vscode.commands.executeCommand('workbench.trust.manage');
    await page.click(TRUST_BUTTON, 15000);
    await waitFor('the workspace to be trusted', () => vscode.workspace.isTrusted || undefined);
    const [next] = await askCtx('what now?', 1);
    assert.ok(next.messages[0].text.includes(AGENTS_RULE), 'AGENTS.md is in the context after trust was granted');
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@ctx /status' });
    await page.waitForText(selectors.chatResponses, /Context Status Report/);
    const reports = await page.text(selectors.chatResponses);
    assert.doesNotMatch(reports[reports.length - 1], /Restricted Mode/, 'the last report names nothing as off');
  });
});
