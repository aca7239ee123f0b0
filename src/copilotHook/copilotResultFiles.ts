/**
 * The file Copilot Chat wrote a large tool result to, found from its transcript's session and call ids. Copilot's
 * transcript keeps no results, but above its threshold (8 KB by default) Copilot writes the result to
 * `<its storage>/chat-session-resources/<session>/<call>/content.txt` (or `content.json`), names made file-safe
 * (`[^A-Za-z0-9_.-]` → `_`), and keeps it for hours: the import puts that content in place of the missing result.
 * The call's folder may carry the suffix VS Code adds to a call id (`__vscode-…`), which the transcript drops.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/** Copilot's folder of written results inside its storage. */
export const RESOURCES_FOLDER = 'chat-session-resources';
const CONTENT_FILES = ['content.txt', 'content.json'];

/** Copilot's file-safe form of a name. */
export function copilotSafeName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_.-]/g, '_');
}

/** The result file of a call, or undefined when Copilot wrote none (the result was small, or is gone). */
export async function findCopilotResultFile(
  storageRoots: readonly string[],
  sessionId: string,
  callId: string,
): Promise<string | undefined> {
  const call = copilotSafeName(callId);
  for (const root of storageRoots) {
    const session = path.join(root, RESOURCES_FOLDER, copilotSafeName(sessionId));
    const names = await fs.readdir(session).catch(() => [] as string[]);
    for (const name of names.filter((n) => n === call || n.startsWith(`${call}__vscode-`)).sort()) {
      for (const file of CONTENT_FILES) {
        const candidate = path.join(session, name, file);
        if (await isFile(candidate)) return candidate;
      }
    }
  }
  return undefined;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}
