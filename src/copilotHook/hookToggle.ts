/**
 * What "Archive Copilot's history before it compacts" decides, apart from VS Code: in a trusted folder it writes
 * ctx's hook file only after the user said yes to a question naming that file, removes it (again after a yes) when
 * it is there, and never touches a file of that name that is not ctx's. Without a folder, or in Restricted Mode, it
 * only says why not.
 */
import { HOOK_FILE_PATH, isCtxHookFile } from './hookFile';

/** A modal question: its title, the detail under it, and the one button that says yes. */
export interface Question {
  readonly message: string;
  readonly detail: string;
  readonly yes: string;
}

/** What the command needs of its host (VS Code's window and file system, or a test's fakes). */
export interface HookToggleHost {
  /** The hook file's path in the workspace folder, or undefined when no folder is open. */
  readonly file: string | undefined;
  readonly trusted: boolean;
  /** Where ctx's hook script lives, for the question. */
  readonly scriptFolder: string;
  read(): Promise<string | undefined>;
  write(text: string): Promise<void>;
  remove(): Promise<void>;
  /** True only when the user chose `yes`; a dismissed or refused dialog is a no. */
  ask(question: Question): Promise<boolean>;
  warn(message: string): void;
}

/** What the command did. */
export type HookToggleOutcome = 'installed' | 'removed' | 'declined' | 'no-folder' | 'untrusted' | 'not-ctx';

export const INSTALL_BUTTON = 'Write the hook';
export const REMOVE_BUTTON = 'Remove the hook';
export const NO_FOLDER_MESSAGE = `ctx: open a folder first. Copilot reads its hooks from a workspace folder's ${HOOK_FILE_PATH.replace(/[^/]+$/, '')}.`;
export const UNTRUSTED_MESSAGE =
  "ctx: trust this workspace first. A hook runs a command on your machine, so ctx installs none in Restricted Mode (and Copilot's agent runs none there).";

/** Installs or removes ctx's hook; `text` is the hook file as ctx writes it now. */
export async function toggleHook(host: HookToggleHost, text: string): Promise<HookToggleOutcome> {
  const file = host.file;
  if (file === undefined) {
    host.warn(NO_FOLDER_MESSAGE);
    return 'no-folder';
  }
  if (!host.trusted) {
    host.warn(UNTRUSTED_MESSAGE);
    return 'untrusted';
  }
  const existing = await host.read();
  if (existing !== undefined && !isCtxHookFile(existing)) {
    host.warn(`ctx: ${file} exists and is not ctx's hook; ctx leaves it as it is.`);
    return 'not-ctx';
  }
  if (existing !== undefined) {
    const yes = await host.ask({
      message: "Stop archiving Copilot's history?",
      detail: `ctx deletes ${file}. What ctx has archived stays searchable with ctx_recover.`,
      yes: REMOVE_BUTTON,
    });
    if (!yes) return 'declined';
    await host.remove();
    return 'removed';
  }
  const yes = await host.ask({
    message: "Archive Copilot's history before it compacts?",
    detail:
      `ctx writes ${file}. Before Copilot's agent compacts its history, Copilot then runs ctx's script (in ` +
      `${host.scriptFolder}, with the editor's own node, no network), which copies Copilot's transcript into ctx's ` +
      'storage: ctx_recover then finds what the compaction dropped. The file names paths of this machine, so keep it ' +
      'out of version control. Run the command again to remove it.',
    yes: INSTALL_BUTTON,
  });
  if (!yes) return 'declined';
  await host.write(text);
  return 'installed';
}
