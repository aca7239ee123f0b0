/**
 * The hook file ctx writes for Copilot Chat's Local harness, in the format VS Code 1.139 reads from
 * `.github/hooks/*.json`: `{ "hooks": { "PreCompact": [ { "type": "command", "command", "windows", "env", "timeout" } ] } }`
 * (`command` runs through a shell; `windows`, when given, runs in PowerShell on Windows; `timeout` in seconds).
 */

/** Where ctx's hook file goes, relative to the workspace folder. */
export const HOOK_FILE_PATH = '.github/hooks/ctx-archive-before-compaction.json';
/** The hook script's file name in the extension's `dist/` folder. */
export const HOOK_SCRIPT_NAME = 'copilotPreCompactHook.js';
/** Seconds Copilot gives the hook: copying a transcript of some megabytes takes well under one. */
const HOOK_TIMEOUT_SECONDS = 30;

/** What the hook command is made of. */
export interface HookCommandParts {
  /** The runtime that runs the script: the extension host's own executable (node, or Electron run as node). */
  readonly runtime: string;
  readonly script: string;
  /** ctx's inbox folder, where the script copies the transcript. */
  readonly inbox: string;
}

/** The hook file's text. */
export function hookFileText(parts: HookCommandParts): string {
  const args = [parts.runtime, parts.script, parts.inbox];
  const file = {
    hooks: {
      PreCompact: [
        {
          type: 'command',
          command: args.map(posixQuote).join(' '),
          windows: `& ${args.map(powershellQuote).join(' ')}`,
          // The editor's executable runs as plain node with this; node itself ignores it.
          env: { ELECTRON_RUN_AS_NODE: '1' },
          timeout: HOOK_TIMEOUT_SECONDS,
        },
      ],
    },
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** True when a hook file's text runs ctx's hook script (so ctx may rewrite or remove it, and no other). */
export function isCtxHookFile(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    const hooks = (value as { hooks?: { PreCompact?: unknown } } | null)?.hooks?.PreCompact;
    return Array.isArray(hooks) && hooks.some((h) => typeof h?.command === 'string' && h.command.includes(HOOK_SCRIPT_NAME));
  } catch {
    return false;
  }
}

/** A word for a POSIX shell: single quotes, a single quote inside written as '\''. */
function posixQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A word for PowerShell: single quotes, a single quote inside doubled. */
function powershellQuote(word: string): string {
  return `'${word.replace(/'/g, "''")}'`;
}
