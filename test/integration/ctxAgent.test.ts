/**
 * @ctx as a complete agent in a real VS Code, with no ctx settings: it offers the tools VS Code knows, reads
 * a workspace file and runs a command through the stand-in's tools (VS Code's confirmation shown in the page
 * and answered there), and keeps the workspace's instruction files in the context through a checkpoint.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { askCtx, ctxApi, waitFor } from './ctxClient';
import { page, selectors } from './page';
import { recordMetric } from './results';
import * as standin from './standin';
import { patient } from './patience';

/** The buttons of the Chat view's tool confirmation. */
const CONFIRMATION = selectors.chatConfirmation;
const ALLOW_BUTTON = `${CONFIRMATION} .monaco-button:text-is("Allow")`;
const SKIP_BUTTON = `${CONFIRMATION} .monaco-button:text-is("Skip")`;
/** VS Code 1.139's primary button: it allows the tool for the rest of this chat. */
const ALLOW_IN_SESSION_BUTTON = `${CONFIRMATION} .monaco-button:text-is("Allow in this Session")`;

/**
 * Allows the pending tool call by mouse. VS Code 1.104 draws "Allow" as the primary button; 1.139 makes
 * "Allow in this Session" primary, which also allows the tool's later calls (the next test resets that with
 * {@link RESET_TRUSTED_TOOLS}). The primary button rather than "Allow Once" in the chevron's menu: that menu opens over Copilot's
 * banner below the input, and a click there went astray and left the call waiting.
 */
async function allow(): Promise<void> {
  await page.click((await page.text(ALLOW_BUTTON)).length > 0 ? ALLOW_BUTTON : ALLOW_IN_SESSION_BUTTON);
}

/** "Chat: Reset Tool Confirmations": every tool asks again. */
const RESET_TRUSTED_TOOLS = 'workbench.action.chat.resetTrustedTools';

/** Files this suite puts into the workspace (and removes afterwards), by workspace-relative path. */
const PLAN = 'notes/release-plan.md';
const PLAN_TEXT = '# Release plan\n\n1. Freeze the schema on Thursday.\n2. Tag 4.2.0 once CI is green.\n';
const AGENTS_RULE = 'Every answer names the file it relies on, with its path in backticks.';
const SQL_RULE = 'In SQL files, name constraints explicitly (pk_, fk_, ck_ prefixes).';
const WORKSPACE_FILES: Readonly<Record<string, string>> = {
  [PLAN]: PLAN_TEXT,
  'db/schema.sql': 'CREATE TABLE releases (id INTEGER PRIMARY KEY, tag TEXT NOT NULL);\n',
  'AGENTS.md': `# Agent notes\n\n${AGENTS_RULE}\n`,
  '.github/instructions/sql.instructions.md': `---\napplyTo: "**/*.sql"\n---\n${SQL_RULE}\n`,
};

function workspaceUri(relative: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the harness opens a workspace folder');
  return vscode.Uri.joinPath(folder.uri, ...relative.split('/'));
}

const answer = (tokens: number, topic: string) =>
  `About ${topic}: ${'The release train leaves when every check is green and the notes are written. '.repeat(Math.ceil(tokens / 14))}`;

const resultOf = (request: standin.RecordedRequest, callId: string) =>
  request.messages.flatMap((m) => m.parts).find((p) => p.type === 'toolResult' && p.callId === callId);

describe('@ctx as a complete agent, with no ctx settings', function () {
  this.timeout(patient(90_000));
  let allowedBefore: string[] | undefined;

  before(async () => {
    await ctxApi();
    const tools = vscode.workspace.getConfiguration('ctx').inspect<string[]>('tools.allowed');
    allowedBefore = tools?.globalValue;
    await vscode.workspace.getConfiguration('ctx').update('tools.allowed', undefined, vscode.ConfigurationTarget.Global);
    for (const [file, text] of Object.entries(WORKSPACE_FILES)) {
      await vscode.workspace.fs.writeFile(workspaceUri(file), new TextEncoder().encode(text));
    }
    await standin.reset();
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  after(async () => {
    for (const file of Object.keys(WORKSPACE_FILES)) {
      await vscode.workspace.fs.delete(workspaceUri(file), { useTrash: false }).then(undefined, () => undefined);
    }
    await vscode.workspace.getConfiguration('ctx').update('tools.allowed', allowedBefore, vscode.ConfigurationTarget.Global);
  });

  it('offers every tool VS Code knows, and reads a workspace file through a tool of another extension', async () => {
    await standin.script(
      [{ text: 'Let me read the plan.' }, { toolCall: { callId: 'read-plan', name: standin.READ_FILE_TOOL, input: { path: PLAN } } }],
      'The plan freezes the schema on Thursday.',
    );
    // Extensions may register tools while the request runs (Copilot adds some late): the offer lies between the lists before and after.
    const knownBefore = vscode.lm.tools.map((t) => t.name);
    const [first, second] = await askCtx('what does the release plan say?', 2);
    const known = vscode.lm.tools.map((t) => t.name).sort();
    const offered = first.tools.map((t) => t.name).sort();
    recordMetric('toolsOfferedWithNoSettings', offered.length);
    assert.deepStrictEqual(
      knownBefore.filter((name) => !offered.includes(name)),
      [],
      'every tool in vscode.lm.tools when the request was made is offered',
    );
    assert.deepStrictEqual(
      offered.filter((name) => !known.includes(name)),
      [],
      'only tools of vscode.lm.tools are offered',
    );
    assert.ok(known.includes(standin.RUN_COMMAND_TOOL) && known.includes('ctx_recover'));
    assert.strictEqual(first.toolMode, vscode.LanguageModelChatToolMode.Auto);
    assert.strictEqual(first.from.toLowerCase(), 'ctx-dev.ctx', 'the stand-in records which extension asked');
    const result = resultOf(second, 'read-plan');
    assert.ok(result && result.type === 'toolResult' && !result.isError, 'the read succeeded');
    assert.ok(JSON.stringify(result.content).includes('Freeze the schema on Thursday.'), 'the model got the file');
    await page.waitForText(selectors.chatResponses, 'The plan freezes the schema on Thursday.');
  });

  it('asks the model to call a tool the user attached with #, in the first round only', async () => {
    await standin.script([{ toolCall: { callId: 'read-plan-2', name: standin.READ_FILE_TOOL, input: { path: PLAN } } }], 'Read it.');
    const [first, second] = await askCtx(`#standinReadFile what is in ${PLAN}?`, 2);
    assert.deepStrictEqual(
      first.tools.map((t) => t.name),
      [standin.READ_FILE_TOOL],
      'the first round offers only the attached tool',
    );
    assert.strictEqual(first.toolMode, vscode.LanguageModelChatToolMode.Required);
    assert.strictEqual(second.toolMode, vscode.LanguageModelChatToolMode.Auto);
    assert.ok(second.tools.length > 1, 'later rounds offer every tool again');
  });

  it("runs a command only after VS Code's confirmation, accepted in the page", async () => {
    const api = await ctxApi();
    await api.whenIdle();
    await standin.script(
      [{ toolCall: { callId: 'lint-1', name: standin.RUN_COMMAND_TOOL, input: { command: 'npm run lint' } } }],
      'Lint is clean.',
    );
    const before = (await standin.requests()).length;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@ctx run the linter' });
    const shown = await page.waitForText(CONFIRMATION, 'Run a command in the stand-in shell?', 20000);
    assert.match(shown, /npm run lint/, 'the confirmation names the command');
    await page.screenshot('ctx-agent-confirmation');
    assert.ok(!(await standin.toolInvocations()).some((i) => i.name === standin.RUN_COMMAND_TOOL), 'nothing ran before the answer');
    await allow();
    const [, second] = await waitFor('the request after the command ran', async () => {
      const all = await standin.requests();
      return all.length >= before + 2 ? all.slice(before) : undefined;
    });
    await api.whenIdle();
    const result = resultOf(second, 'lint-1');
    assert.ok(result && result.type === 'toolResult' && !result.isError, 'the command ran');
    assert.match(JSON.stringify(result.content), /\$ npm run lint[\s\S]*exit code 0/);
    await page.waitForText(selectors.chatResponses, 'Lint is clean.');
  });

  it('tells the model when the user skips a command, and does not run it', async () => {
    const api = await ctxApi();
    await api.whenIdle();
    const ranBefore = (await standin.toolInvocations()).filter((i) => i.name === standin.RUN_COMMAND_TOOL).length;
    await standin.script(
      [{ toolCall: { callId: 'deploy-1', name: standin.RUN_COMMAND_TOOL, input: { command: 'npm run deploy' } } }],
      'Not deploying then.',
    );
    const before = (await standin.requests()).length;
    // The command tool was allowed for the rest of the last chat (VS Code 1.139): ask again.
    if ((await vscode.commands.getCommands(true)).includes(RESET_TRUSTED_TOOLS)) {
      await vscode.commands.executeCommand(RESET_TRUSTED_TOOLS);
      await vscode.commands.executeCommand('notifications.clearAll');
    }
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@ctx deploy it' });
    await page.waitForText(CONFIRMATION, /npm run deploy/, 20000);
    await page.click(SKIP_BUTTON);
    const [, second] = await waitFor('the request after the skipped command', async () => {
      const all = await standin.requests();
      return all.length >= before + 2 ? all.slice(before) : undefined;
    });
    await api.whenIdle();
    const ran = (await standin.toolInvocations()).filter((i) => i.name === standin.RUN_COMMAND_TOOL).length;
    assert.strictEqual(ran, ranBefore, 'the skipped command did not run');
    const result = resultOf(second, 'deploy-1');
    assert.ok(result, 'the skipped call still got a result');
    assert.doesNotMatch(JSON.stringify(result), /exit code 0/);
  });

  it('keeps the instruction files in the context the model receives, scoped ones once a matching file is read, and after /compress', async () => {
    const [early] = await askCtx('anything else?', 1);
    assert.ok(early.messages[0].text.includes(AGENTS_RULE), 'AGENTS.md is in the context, verbatim');
    assert.ok(!early.messages[0].text.includes(SQL_RULE), 'the SQL rule waits for a SQL file');

    await standin.script(
      [{ toolCall: { callId: 'read-schema', name: standin.READ_FILE_TOOL, input: { path: 'db/schema.sql' } } }],
      'The schema has one table.',
    );
    const [, afterRead] = await askCtx('look at the schema', 2);
    assert.ok(afterRead.messages[0].text.includes(SQL_RULE), 'reading a SQL file brings in the SQL rule');

    for (const topic of ['the schedule', 'the changelog', 'the tagging']) {
      await standin.script(answer(1200, topic));
      await askCtx(`explain ${topic}`, 1);
    }
    const api = await ctxApi();
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@ctx /compress' });
    await page.waitForText(selectors.chatResponses, /Summarized \d+ messages → 1 summary/, 20000);
    await api.whenIdle();
    const [next] = await askCtx('where do we stand?', 1);
    const context = next.messages[0].text;
    assert.match(context, /## Checkpoint 1/, 'a checkpoint was made');
    assert.ok(context.includes(AGENTS_RULE), 'the AGENTS.md rule survived the checkpoint verbatim');
    assert.ok(context.includes(SQL_RULE), 'so did the SQL rule');
    assert.ok(!next.messages.slice(1).some((m) => m.text.includes('About the schedule')), 'the older answers were summarized');

    await vscode.commands.executeCommand('ctx.showTree');
    await page.waitForText(selectors.sideBar, 'AGENTS.md');
    await page.screenshot('ctx-agent-instructions-in-tree');
  });
});
