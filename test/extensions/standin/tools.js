// TEST ONLY: the stand-in's language-model tools, declared in its package.json (`languageModelTools`):
//   - ctxStandin_bigResult {lines, tail?}: a fake build log of that many lines (~100 characters each);
//   - ctxStandin_fail {message?}: always throws;
//   - ctxStandin_readFile {path}: a workspace file's text, read through vscode.workspace.fs;
//   - ctxStandin_runCommand {command}: pretends to run a shell command, after VS Code's confirmation
//     (its prepareInvocation returns confirmationMessages). Nothing is executed: the output is derived from
//     the command line, so it is deterministic.
// Every invocation is recorded (`ctxStandin.toolInvocations`).
'use strict';

const vscode = require('vscode');
const { safeJson } = require('./messages');

const TOOL_NAMES = {
  bigResult: 'ctxStandin_bigResult',
  fail: 'ctxStandin_fail',
  readFile: 'ctxStandin_readFile',
  runCommand: 'ctxStandin_runCommand',
};

/**
 * A fake build log of `lines` lines, deterministic, about 100 characters a line, then the `tail` lines
 * as given (the demo ends its logs with the errors it talks about; tests pass no tail).
 */
function fakeLog(lines, tail = []) {
  const out = [];
  for (let i = 1; i <= lines; i++) {
    const level = i % 97 === 0 ? 'WARN' : 'INFO';
    out.push(
      `2025-01-01T00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z ` +
        `[${level}] step ${String(i).padStart(6, '0')}: compiled src/module${i % 50}.ts in ${(i * 7) % 400} ms (stand-in log)`,
    );
  }
  out.push(...tail);
  return out.join('\n');
}

/** A small deterministic number from a string (FNV-1a), so pretend output differs per command. */
function checksum(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/** What the pretend shell prints for a command line. */
function pretendOutput(command) {
  return [`$ ${command}`, `stand-in shell: pretended to run the command (checksum ${checksum(command).toString(16)})`, 'exit code 0'].join(
    '\n',
  );
}

/** A workspace-relative (or absolute) path as a URI inside the first workspace folder. */
function workspaceUri(filePath) {
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (!folder) throw new Error('ctx test stand-in: no workspace folder is open');
  if (filePath.startsWith('/')) return vscode.Uri.file(filePath);
  return vscode.Uri.joinPath(folder.uri, ...filePath.split('/').filter(Boolean));
}

const text = (value) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);

/**
 * Registers the tools; `record(name, input)` keeps each invocation and returns its record (the big result's
 * sets `returnedAtMs` on it as it returns). Returns the registrations.
 */
function registerTools(record) {
  return [
    vscode.lm.registerTool(TOOL_NAMES.bigResult, {
      invoke(options) {
        const invocation = record(TOOL_NAMES.bigResult, options.input);
        const lines = Math.max(1, Math.floor(Number(options.input && options.input.lines) || 2000));
        const tail = Array.isArray(options.input && options.input.tail) ? options.input.tail.map(String) : [];
        const result = text(fakeLog(lines, tail));
        invocation.returnedAtMs = Date.now();
        return result;
      },
    }),
    vscode.lm.registerTool(TOOL_NAMES.fail, {
      invoke(options) {
        record(TOOL_NAMES.fail, options.input);
        throw new Error((options.input && options.input.message) || 'ctx test stand-in: this tool always fails');
      },
    }),
    vscode.lm.registerTool(TOOL_NAMES.readFile, {
      prepareInvocation(options) {
        return { invocationMessage: `Reading ${String(options.input && options.input.path)} (stand-in)` };
      },
      async invoke(options) {
        record(TOOL_NAMES.readFile, options.input);
        const filePath = String((options.input && options.input.path) || '');
        if (!filePath) throw new Error('ctx test stand-in: give the path of a file to read');
        const bytes = await vscode.workspace.fs.readFile(workspaceUri(filePath));
        return text(new TextDecoder().decode(bytes));
      },
    }),
    vscode.lm.registerTool(TOOL_NAMES.runCommand, {
      prepareInvocation(options) {
        const command = String((options.input && options.input.command) || '');
        return {
          invocationMessage: `Running \`${command}\` (stand-in)`,
          confirmationMessages: {
            title: 'Run a command in the stand-in shell?',
            message: new vscode.MarkdownString(`The stand-in would run \`${command}\`. Nothing is executed: it is a test tool.`),
          },
        };
      },
      invoke(options) {
        record(TOOL_NAMES.runCommand, options.input);
        const command = String((options.input && options.input.command) || '');
        if (!command) throw new Error('ctx test stand-in: give a command to run');
        return text(pretendOutput(command));
      },
    }),
  ];
}

/** An invocation as the stand-in records it; `atMs` is when it started (`Date.now()`). */
function invocationRecord(name, input) {
  const atMs = Date.now();
  return { name, input: safeJson(input), at: new Date(atMs).toISOString(), atMs };
}

module.exports = { registerTools, invocationRecord, pretendOutput, TOOL_NAMES };
