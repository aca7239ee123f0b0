/**
 * ctx's models in a real VS Code: "<model> (ctx)" wraps the stand-in model, and a caller in another
 * extension (the test-only caller) talks to it as Copilot's agent mode would. The stand-in records what
 * reached it: the conversation compressed under its window, every tool call with its result, ctx's
 * recovery rounds; what comes back to the caller is the stand-in's own answer.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { EXTENDED_WINDOW_FACTOR } from '../../src/engine/relay/reportedWindow';
import {
  caller,
  ctxModelFor,
  CTX_VENDOR,
  fromAnswer,
  text,
  toolResult,
  user,
  type CallerMessage,
  type CallerTool,
  type ModelInfo,
} from './caller';
import { ctxApi, waitFor } from './ctxClient';
import { pickModel } from './modelPicker';
import { page, selectors } from './page';
import { recordMetric } from './results';
import * as standin from './standin';
import { patient } from './patience';

const CTX_ID = 'ctx-dev.ctx';

/** The caller's own tool: reading a log. */
const readLog: CallerTool = {
  name: 'read_log',
  description: 'Reads the build log of a step.',
  inputSchema: { type: 'object', properties: { step: { type: 'number' } }, required: ['step'] },
};

/** A build log of about `lines` lines of ~100 characters, each line naming its step and number. */
function buildLog(step: number, lines: number, extra = ''): string {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) {
    out.push(`[step ${step}] line ${i}: compiling src/module_${(i * 31 + step) % 97}.ts … ok (${(i * 7) % 400} ms)`.padEnd(100, '.'));
  }
  if (extra) out.splice(Math.floor(lines / 2), 0, extra);
  return out.join('\n');
}

/**
 * A long log of plain notes (not progress lines) with `needle` near its end: more of it than free room
 * ever shows comes before the needle, so the needle is only in the offloaded file and the archive.
 */
function notesLog(step: number, lines: number, needle: string): string {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) {
    out.push(
      `[step ${step}] note ${i}: src/module_${(i * 31 + step) % 97}.ts exports ${(i * 7) % 40} symbols and imports ${(i * 3) % 11} modules`,
    );
  }
  out.splice(Math.floor(lines * 0.9), 0, needle);
  return out.join('\n');
}

/** Every tool call of a recorded request has its result in a later message, and every result its call. */
function unpairedToolParts(request: standin.RecordedRequest): string[] {
  const calls: string[] = [];
  const results: string[] = [];
  for (const m of request.messages) {
    for (const p of m.parts) {
      if (p.type === 'toolCall') calls.push(p.callId);
      if (p.type === 'toolResult') {
        if (!calls.includes(p.callId)) return [`result ${p.callId} before its call`];
        results.push(p.callId);
      }
    }
  }
  return [...calls.filter((c) => !results.includes(c)).map((c) => `call ${c} without a result`)];
}

/** Requests the stand-in received after the first `before`, once `count` more arrived. */
async function newRequests(before: number, count: number): Promise<standin.RecordedRequest[]> {
  return waitFor(`${count} stand-in requests`, async () => {
    const all = await standin.requests();
    return all.length >= before + count ? all.slice(before) : undefined;
  });
}

describe('ctx models: ctx in front of any caller', function () {
  this.timeout(patient(90_000));
  let wrapped: vscode.LanguageModelChat;
  let model: ModelInfo;

  before(async () => {
    await ctxApi();
    wrapped = await standin.model();
    await standin.reset();
    model = await ctxModelFor(wrapped);
  });

  it('offers "<model> (ctx)" for the stand-in: same family, eight times the wrapped window by default, found by vendor', async () => {
    assert.strictEqual(model.name, `${wrapped.name} (ctx)`);
    assert.strictEqual(model.family, wrapped.family);
    assert.strictEqual(model.maxInputTokens, wrapped.maxInputTokens * EXTENDED_WINDOW_FACTOR);
    const ours = await (await caller()).models(CTX_VENDOR);
    assert.ok(
      ours.every((m) => !m.name.endsWith('(ctx) (ctx)')),
      `ctx never wraps its own models: ${ours.map((m) => m.name).join(', ')}`,
    );
  });

  it('carries a long agent conversation to the model compressed under its window, every tool call with its result, and brings every part back', async () => {
    const api = await caller();
    const before = (await standin.requests()).length;
    const steps = 6;
    const replies: standin.ScriptReply[] = [];
    for (let step = 1; step <= steps; step++) {
      replies.push([{ text: `Reading step ${step}.` }, { toolCall: { callId: `call-${step}`, name: readLog.name, input: { step } } }]);
    }
    replies.push([{ text: 'All six steps built; step 4 had one warning.' }]);
    await standin.script(...replies);

    let conversation: CallerMessage[] = [user(text('Build the project and tell me what went wrong.'))];
    const answers = [];
    for (let step = 1; step <= steps + 1; step++) {
      const answer = await api.send({ vendor: CTX_VENDOR, id: model.id, messages: conversation, tools: [readLog] });
      assert.strictEqual(answer.error, undefined, JSON.stringify(answer.error));
      answers.push(answer);
      conversation = [...conversation, fromAnswer(answer)];
      if (step <= steps) conversation.push(user(toolResult(`call-${step}`, buildLog(step, 400))));
    }

    // What came back is exactly what the model said, text and tool calls, in order.
    assert.deepStrictEqual(answers[0].parts, [
      { type: 'text', text: 'Reading step 1.' },
      { type: 'toolCall', callId: 'call-1', name: readLog.name, input: { step: 1 } },
    ]);
    assert.deepStrictEqual(answers[steps].parts, [{ type: 'text', text: 'All six steps built; step 4 had one warning.' }]);

    const sent = await newRequests(before, steps + 1);
    const callerChars = conversation.flatMap((m) => m.parts).reduce((n, p) => n + JSON.stringify(p).length, 0);
    recordMetric('ctxModelCallerTokens', Math.ceil(callerChars / 4));
    recordMetric('ctxModelLargestRequestTokens', Math.max(...sent.map((r) => r.inputTokens)));
    assert.ok(callerChars / 4 > 3 * wrapped.maxInputTokens, `the caller sent ${callerChars} characters`);
    for (const r of sent) {
      assert.strictEqual(r.from, CTX_ID, 'ctx sent it');
      assert.ok(r.inputTokens <= wrapped.maxInputTokens, `request ${r.index}: ${r.inputTokens} tokens > ${wrapped.maxInputTokens}`);
      assert.deepStrictEqual(unpairedToolParts(r), [], `request ${r.index}`);
      assert.ok(
        r.tools.some((t) => t.name === readLog.name),
        `request ${r.index} offers the caller's tool`,
      );
    }
    const last = sent[sent.length - 1];
    const lastText = last.messages.map((m) => m.text).join('\n');
    assert.ok(!lastText.includes('[step 2] line 200:'), 'the middle of an old log is not sent');
    assert.match(lastText, /## Offloaded/);
    assert.match(lastText, /Build the project and tell me what went wrong\./);
    const calls = last.messages.flatMap((m) => m.parts).filter((p) => p.type === 'toolCall');
    assert.ok(calls.length >= 1, 'the latest tool calls are still there');
  });

  it('makes the session of the latest request current, stored like an @ctx session', async () => {
    const api = await ctxApi();
    await api.whenIdle();
    const id = api.currentSessionId();
    assert.ok(id, 'a session is current');
    const archive = fs.readFileSync(path.join(api.storageRoot, 'sessions', id, 'archive.jsonl'), 'utf8');
    assert.match(archive, /Build the project and tell me what went wrong\./);
    assert.ok(fs.existsSync(path.join(api.storageRoot, 'sessions', id, 'conversation.jsonl')));

    await vscode.commands.executeCommand('ctx.showStatus');
    const report = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'ctx-report', path: '/Context Status Report.md' }));
    assert.match(report.getText(), /\*\*Session:\*\* Build the project and tell me what went wrong\./);
    if (page.available) {
      await vscode.commands.executeCommand('ctx.showTree');
      await page.waitForText(selectors.sideBar, 'Build the project and tell me what went wrong.');
      await page.screenshot('ctx-models-session-in-tree');
    }
  });

  it('answers the model’s ctx_recover call itself: the caller sees only the final answer', async () => {
    const api = await caller();
    const before = (await standin.requests()).length;
    await standin.script(
      [{ text: 'Reading.' }, { toolCall: { callId: 'r-1', name: readLog.name, input: { step: 9 } } }],
      [{ toolCall: { callId: 'ctx-r-1', name: 'ctx_recover', input: { query: 'ERR-7731' } } }],
      [{ text: 'The build failed with ERR-7731: disk quota exceeded.' }],
    );
    let conversation: CallerMessage[] = [user(text('Why did the nightly build fail?'))];
    conversation = [
      ...conversation,
      fromAnswer(await api.send({ vendor: CTX_VENDOR, id: model.id, messages: conversation, tools: [readLog] })),
    ];
    conversation.push(user(toolResult('r-1', notesLog(9, 1000, 'ERROR ERR-7731: disk quota exceeded while writing dist/bundle.js'))));
    const answer = await api.send({ vendor: CTX_VENDOR, id: model.id, messages: conversation, tools: [readLog] });

    assert.deepStrictEqual(answer.parts, [{ type: 'text', text: 'The build failed with ERR-7731: disk quota exceeded.' }]);
    const [, lookup, final] = await newRequests(before, 3);
    assert.ok(
      lookup.tools.some((t) => t.name === 'ctx_recover'),
      'ctx offered its recovery tool once the log was offloaded',
    );
    assert.ok(
      !lookup.messages
        .map((m) => m.text)
        .join('\n')
        .includes('ERR-7731'),
      'the log line itself was compressed away',
    );
    const results = final.messages.flatMap((m) => m.parts).filter((p) => p.type === 'toolResult' && p.callId === 'ctx-r-1');
    assert.strictEqual(results.length, 1);
    assert.match(JSON.stringify(results[0]), /ERR-7731: disk quota exceeded/);
  });

  it('sends a message whose attachments alone overflow the window with the attachments in a file and what the user typed as it was', async () => {
    const api = await caller();
    const before = (await standin.requests()).length;
    await standin.script([{ text: 'I read your request.' }]);
    const typed = 'Tidy the build script and keep its step names.';
    const attached = buildLog(7, 900);
    const message = user(
      text(
        `<attachments>\n<attachment id="file:build.log">\n${attached}\n</attachment>\n</attachments>\n<userRequest>\n${typed}\n</userRequest>`,
      ),
    );
    assert.ok(attached.length / 4 > wrapped.maxInputTokens, 'the attachment alone is larger than the window');

    const answer = await api.send({ vendor: CTX_VENDOR, id: model.id, messages: [message], tools: [readLog] });

    assert.strictEqual(answer.error, undefined, JSON.stringify(answer.error));
    assert.deepStrictEqual(answer.parts, [{ type: 'text', text: 'I read your request.' }]);
    const [sent] = await newRequests(before, 1);
    assert.ok(sent.inputTokens <= wrapped.maxInputTokens, `${sent.inputTokens} tokens > ${wrapped.maxInputTokens}`);
    const sentText = sent.messages.map((m) => m.text).join('\n');
    assert.match(sentText, /## Offloaded: attached context of a user message/);
    assert.ok(sentText.includes(typed), 'what the user typed is sent as it was');
    assert.ok(!sentText.includes('[step 7] line 450:'), 'the middle of the attachment is not sent');

    // The caller sends the whole conversation again, the attachment whole: ctx goes on from its session.
    await standin.script([{ text: 'Done.' }]);
    const next = await api.send({
      vendor: CTX_VENDOR,
      id: model.id,
      messages: [message, fromAnswer(answer), user(text('Go on.'))],
      tools: [readLog],
    });
    assert.deepStrictEqual(next.parts, [{ type: 'text', text: 'Done.' }]);
    const [again] = await newRequests(before + 1, 1);
    assert.ok(again.inputTokens <= wrapped.maxInputTokens, `${again.inputTokens} tokens > ${wrapped.maxInputTokens}`);
    const againText = again.messages.map((m) => m.text).join('\n');
    assert.strictEqual(againText.split('## Offloaded: attached context').length, 2, 'one preview of the attachment');
    assert.ok(againText.includes(typed) && againText.includes('Go on.'));
  });

  it('passes the model’s error through to the caller as calling the model directly does', async () => {
    const api = await caller();
    const failing: standin.ScriptReply = [{ text: 'Starting…' }, { error: 'quota exhausted', code: 'Blocked' }];
    await standin.script(failing);
    const direct = await api.send({ vendor: standin.STANDIN_VENDOR, messages: [user(text('Go on.'))] });
    await standin.script(failing);
    const through = await api.send({ vendor: CTX_VENDOR, id: model.id, messages: [user(text('Go on.'))] });
    recordMetric('ctxModelErrorDirect', JSON.stringify(direct));
    recordMetric('ctxModelErrorThroughCtx', JSON.stringify(through));
    assert.ok(through.error, 'the request failed');
    assert.match(through.error.message, /quota exhausted/);
    assert.deepStrictEqual(through.parts, direct.parts);
    assert.strictEqual(through.error.code, direct.error?.code);
  });

  // VS Code 1.104 does not pass a caller's cancellation on to a provider once the request has started (the
  // request's RPC returns before the answer streams), so this checks that ctx behaves as the model itself does;
  // that ctx stops forwarding when its own request is cancelled is covered by the unit tests.
  it('answers a caller that cancels as the model itself does', async () => {
    const api = await caller();
    const slow: standin.ScriptReply = [{ text: 'one' }, { delayMs: 1500 }, { text: 'two' }];
    await standin.script(slow);
    const direct = await api.send({ vendor: standin.STANDIN_VENDOR, messages: [user(text('Count slowly.'))], cancelAfterParts: 1 });
    await standin.script(slow);
    const through = await api.send({ vendor: CTX_VENDOR, id: model.id, messages: [user(text('Count slowly.'))], cancelAfterParts: 1 });
    assert.deepStrictEqual(through, direct);
    assert.deepStrictEqual(through.parts, [{ type: 'text', text: 'one' }]);
    await (await ctxApi()).whenIdle();
  });

  it('counts a message as ctx will send it: a result it will offload counts as its preview', async () => {
    const api = await caller();
    const log = buildLog(1, 400);
    const asText = await api.countTokens({ vendor: CTX_VENDOR, id: model.id, text: log });
    const asResult = await api.countTokens({ vendor: CTX_VENDOR, id: model.id, message: user(toolResult('c-9', log)) });
    assert.ok(asResult < asText / 4, `${asResult} tokens as a result, ${asText} as text`);
  });

  describe('in the Chat view', function () {
    /** Picks a model in the Chat view's model picker (see `pickModel`). */
    const pick = (label: (row: string) => boolean) => pickModel(label, wrapped.name);

    before(function () {
      if (!page.available) this.skip();
    });

    after(async () => {
      // Later tests talk to the stand-in through the Chat view: give it back its model.
      if (page.available) await pick((row) => row.includes(wrapped.name) && !row.includes('(ctx)'));
    });

    it('lists the ctx models in the model picker, and a participant using the one picked gets its answer', async () => {
      await standin.script('The answer came through ctx.');
      // A new chat: no earlier answers on the page, no sticky participant in the input.
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      const labels = await pick((row) => row.includes(`${wrapped.name} (ctx)`));
      assert.ok(
        labels.some((l) => l.includes(`${wrapped.name} (ctx)`)),
        labels.join(' | '),
      );
      await page.click(selectors.chatInput);
      // A sticky participant from earlier tests may still stand in the input.
      await page.press('Control+A');
      await page.press('Delete');
      await page.type('@caller what is the answer?');
      await page.press('Enter');
      const response = await page.waitForText(selectors.chatResponses, 'The answer came through ctx.', 20000);
      assert.ok(response.includes(`Answer from ${wrapped.name} (ctx)`), response);
      await page.screenshot('ctx-models-answer');
    });

    it('lets @ctx, asked with a ctx model picked, talk to the model it wraps: one session, not one inside another', async () => {
      const api = await ctxApi();
      await api.whenIdle();
      const folder = path.join(api.storageRoot, 'sessions');
      const sessionsBefore = new Set(fs.readdirSync(folder));
      const before = (await standin.requests()).length;
      await standin.script('Answered for @ctx.');
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@ctx which model answers?' });
      const [request] = await newRequests(before, 1);
      await api.whenIdle();
      assert.match(request.messages.map((m) => m.text).join('\n'), /which model answers\?/);
      const created = fs.readdirSync(folder).filter((id) => !sessionsBefore.has(id));
      assert.strictEqual(created.length, 1, `sessions created: ${created.join(', ')}`);
    });
  });
});
