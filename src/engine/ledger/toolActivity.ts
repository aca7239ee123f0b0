/**
 * What a tool call did, read from its name and input alone: files read, created, edited or
 * deleted, commands run, or something else. Deterministic, so the ledger's tool record never
 * depends on the model remembering what it did.
 */
import { PATH_KEYS } from '../toolInputKeys';
import type { FileAction } from '../model/ledgerTypes';
import type { ToolCallBlock, ToolInput, ToolResultBlock } from '../types';
import { isRecord } from '../schema';
import { CD_PREFIX } from './commandKey';
import { nameWords } from '../text/nameWords';

/** The effect of one tool call. */
export type ToolActivity =
  | {
      readonly kind: 'file';
      readonly action: FileAction;
      readonly paths: readonly string[];
      /** What was done to each path, in order, when the call did different things to them (a patch); else `action` to all. */
      readonly pathActions?: readonly FileAction[];
    }
  | { readonly kind: 'command'; readonly commands: readonly string[] }
  | { readonly kind: 'other' };

const OTHER: ToolActivity = { kind: 'other' };

/** Path keys beyond the ones tier 2 knows: notebooks and a few spellings seen in agent tools. */
const EXTRA_PATH_KEYS = ['notebook_path', 'notebookPath', 'filepath', 'relative_path', 'relativePath'];
const SINGLE_PATH_KEYS = [...PATH_KEYS, ...EXTRA_PATH_KEYS];
/** Keys holding several files: strings or objects with a path key (Cline's `read_files`). */
const MULTI_PATH_KEYS = ['files', 'paths', 'file_paths', 'filePaths'];
/** Keys holding the command line of a shell tool. */
const COMMAND_KEYS = ['command', 'cmd', 'script'];
/** Keys holding several command lines (Cline's `run_commands`). */
const MULTI_COMMAND_KEYS = ['commands'];

/** `str_replace_editor` / `str_replace_based_edit_tool`: the sub-command in `command` says what happened. */
const EDITOR_COMMANDS: Readonly<Record<string, FileAction>> = {
  view: 'read',
  create: 'created',
  str_replace: 'edited',
  insert: 'edited',
  undo_edit: 'edited',
};

/** Name words, matched against the tool name split at `_`, `-`, spaces and camelCase. */
const COMMAND_WORDS = new Set(['bash', 'shell', 'terminal', 'execute', 'exec', 'sh', 'powershell', 'pwsh']);
/** Multi-word names matched against the whole name joined with `_`. */
const COMMAND_PHRASES = ['run_command', 'run_in_terminal'];
const DELETE_WORDS = new Set(['delete', 'remove', 'rm', 'unlink']);
const EDIT_WORDS = new Set(['edit', 'editor', 'replace', 'patch', 'insert']);
const WRITE_WORDS = new Set(['write', 'create']);
const READ_WORDS = new Set(['read', 'view', 'cat', 'open']);

/** SWE-agent's file commands name the file only in their output: `[File: /testbed/x.py (10 lines total)]`. */
const SWE_AGENT_FILE_HEADER = /^\s*\[File: (.+?) \(\d+ lines total\)\]/;
/** Results saying a write replaced an existing file (Claude Code's `Write` on a file that was there). */
const OVERWRITE_HINT = /\bhas been (?:updated|overwritten)\b|\boverwrote\b/i;

/**
 * Classifies a call from its name (case-insensitive word patterns) and its input keys. `result`
 * helps where the input is silent: SWE-agent's `edit`/`insert` name their file only in the result,
 * and a write that replaced a file says so there.
 */
export function classifyToolCall(call: ToolCallBlock, result?: ToolResultBlock): ToolActivity {
  const input = call.input;
  const editorAction = typeof input.command === 'string' ? EDITOR_COMMANDS[input.command] : undefined;
  const inputPaths = pathsOf(input);
  if (editorAction !== undefined && inputPaths.length > 0) return { kind: 'file', action: editorAction, paths: inputPaths };

  const words = nameWords(call.name);
  const joined = words.join('_');
  if (words.some((w) => COMMAND_WORDS.has(w)) || COMMAND_PHRASES.some((p) => joined.includes(p))) {
    const commands = commandsOf(input);
    // A patch fed to a patch tool on the command line (`apply_patch <<'EOF'`) is an edit, told by the patch's own headers.
    const patched = commands.length === 1 && PATCH_COMMAND.test(commands[0]) ? patchActivity(input) : undefined;
    return patched ?? (commands.length > 0 ? { kind: 'command', commands } : OTHER);
  }
  const action = fileActionOf(words);
  if (action === undefined) return OTHER;
  const paths = inputPaths.length > 0 ? inputPaths : pathFromResult(result);
  if (paths.length === 0) return patchActivity(input) ?? OTHER;
  const overwrote = action === 'created' && result !== undefined && OVERWRITE_HINT.test(result.content.slice(0, 500));
  return { kind: 'file', action: overwrote ? 'edited' : action, paths };
}

function fileActionOf(words: readonly string[]): FileAction | undefined {
  if (words.some((w) => DELETE_WORDS.has(w))) return 'deleted';
  if (words.some((w) => EDIT_WORDS.has(w))) return 'edited';
  if (words.some((w) => WRITE_WORDS.has(w))) return 'created';
  if (words.some((w) => READ_WORDS.has(w))) return 'read';
  return undefined;
}

/** Every file path the input names, each once. */
export function pathsOf(input: ToolInput): string[] {
  const paths: string[] = [];
  for (const key of SINGLE_PATH_KEYS) {
    const value = input[key];
    if (typeof value === 'string' && value.trim().length > 0) {
      paths.push(value.trim());
      break;
    }
  }
  for (const key of MULTI_PATH_KEYS) {
    const value = input[key];
    if (!Array.isArray(value)) continue;
    for (const item of value) {
      const path = typeof item === 'string' ? item : isRecord(item) ? pathsOf(item)[0] : undefined;
      if (path !== undefined && path.trim().length > 0) paths.push(path.trim());
    }
  }
  // A list of changes, each naming its own file (Copilot's `replacements`).
  if (paths.length === 0) {
    for (const value of Object.values(input)) {
      if (!Array.isArray(value)) continue;
      for (const item of value) {
        const path = isRecord(item) ? pathsOf(item)[0] : undefined;
        if (path !== undefined) paths.push(path);
      }
    }
  }
  return [...new Set(paths)];
}

/** The command lines a shell call ran. An argv array (`["bash", "-lc", "make"]`) gives its script. */
export function commandsOf(input: ToolInput): string[] {
  for (const key of COMMAND_KEYS) {
    const value = input[key];
    if (typeof value === 'string' && value.trim().length > 0) return [value.trim()];
    if (Array.isArray(value) && value.length > 0 && value.every((v): v is string => typeof v === 'string')) return [argvCommand(value)];
  }
  for (const key of MULTI_COMMAND_KEYS) {
    const value = input[key];
    if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.trim().length > 0).map((v) => v.trim());
  }
  return [];
}

function argvCommand(argv: readonly string[]): string {
  const shellFlag = argv.findIndex((a) => a === '-c' || a === '-lc');
  return shellFlag >= 0 && shellFlag === argv.length - 2 ? argv[argv.length - 1] : argv.join(' ');
}

/** A command line that runs a patch tool on a patch it is given. */
const PATCH_COMMAND = new RegExp(String.raw`^\s*(?:${CD_PREFIX})?(?:apply_patch|applypatch|patch\b|git\s+apply\b)`);
/** Characters of an input read for a patch's headers. @default 200000 */
const PATCH_CHARS = 200_000;
/** A file's header in Codex's patch format (also Copilot's and OpenCode's): `*** Update File: p`. */
const CODEX_PATCH_FILE = /^\*\*\* (Add|Update|Delete) File: (.+?)\s*$/gm;
/** A unified diff's new side: `+++ b/p`. */
const DIFF_NEW_SIDE = /^\+\+\+ (?:[ab]\/)?(\S+)/gm;
/** A unified diff's old side, to tell a file it creates (`--- /dev/null`) and one it deletes (`+++ /dev/null`). */
const DEV_NULL = '/dev/null';

/**
 * The files a patch in the input changes, and what it did to each, from the patch's own headers; the call's action is
 * the strongest it holds (an update, else an addition, else a deletion).
 */
export function patchActivity(input: ToolInput): ToolActivity | undefined {
  const text = Object.values(input)
    .flatMap((v) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []))
    .find((v) => v.includes('*** Begin Patch') || /^\+\+\+ /m.test(v));
  if (text === undefined) return undefined;
  const actionOf = new Map<string, FileAction>();
  const record = (path: string, action: FileAction) => {
    if (path.length > 0 && !actionOf.has(path)) actionOf.set(path, action);
  };
  const head = text.slice(0, PATCH_CHARS);
  if (head.includes('*** Begin Patch')) {
    for (const m of head.matchAll(CODEX_PATCH_FILE)) record(m[2], m[1] === 'Add' ? 'created' : m[1] === 'Delete' ? 'deleted' : 'edited');
  } else {
    for (const m of head.matchAll(DIFF_NEW_SIDE)) {
      // The diff's old side is the line just before its new side.
      const at = m.index ?? 0;
      const oldSide = /^--- (\S+)/.exec(head.slice(head.lastIndexOf('\n', at - 2) + 1, at))?.[1];
      if (m[1] !== DEV_NULL) record(m[1], oldSide === DEV_NULL ? 'created' : 'edited');
      else if (oldSide !== undefined && oldSide !== DEV_NULL) record(oldSide.replace(/^[ab]\//, ''), 'deleted');
    }
  }
  if (actionOf.size === 0) return undefined;
  const actions = [...actionOf.values()];
  const action: FileAction = actions.includes('edited') ? 'edited' : actions.includes('created') ? 'created' : 'deleted';
  const paths = [...actionOf.keys()];
  return actions.every((a) => a === action) ? { kind: 'file', action, paths } : { kind: 'file', action, paths, pathActions: actions };
}

function pathFromResult(result: ToolResultBlock | undefined): string[] {
  const match = result === undefined ? null : SWE_AGENT_FILE_HEADER.exec(result.content.slice(0, 1000));
  return match ? [match[1]] : [];
}
