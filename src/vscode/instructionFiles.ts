/**
 * Reads the workspace's instruction files for the ledger: in each workspace folder
 * `.github/copilot-instructions.md`, `AGENTS.md` and `.github/instructions/*.instructions.md`. They are read
 * again at every round of a turn; a file whose modification time and size did not change is not read again.
 * Files on the extension host's disk are read without waiting on the window (`localReads.ts`), so a round's
 * check costs the same however long the chat's answer has grown.
 */
import * as vscode from 'vscode';
import {
  type InstructionFiles,
  type InstructionFileText,
  type Logger,
  noInstructionFiles,
  readInstructions,
  SCOPED_INSTRUCTIONS_SUFFIX,
} from '../engine/host/ports';
import type { ContextSession } from '../engine/host/session';
import { bytesOf, entriesOf, isNotFound, statOf } from './localReads';

/** Files that always apply, relative to a workspace folder, in the order they are shown. */
const ALWAYS_FILES = ['.github/copilot-instructions.md', 'AGENTS.md'];
/** The folder of the instruction files that `applyTo` scopes. */
const SCOPED_FOLDER = '.github/instructions';
/** Larger files are not read: they are not instructions (the ledger keeps at most 20,000 characters of one anyway). */
const MAX_FILE_BYTES = 1024 * 1024;

/**
 * The instruction files @ctx reads. This is the one place that decides whether workspace instructions are
 * read at all: not while the workspace is untrusted (Restricted Mode). Trust is asked at every read, so
 * the files come in at the first round after the user trusts the workspace.
 */
export function instructionFilesFor(logger: Logger, trusted: () => boolean): InstructionFiles {
  const files = new WorkspaceInstructionFiles(logger);
  return { read: () => (trusted() ? files.read() : noInstructionFiles.read()) };
}

/** Reads the files, caching each by its modification time and size. */
export class WorkspaceInstructionFiles implements InstructionFiles {
  private readonly cache = new Map<string, { mtime: number; size: number; text: string }>();

  constructor(private readonly logger: Logger) {}

  async read(): Promise<InstructionFileText[]> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const found: InstructionFileText[] = [];
    for (const folder of folders) {
      const uris = [...ALWAYS_FILES.map((f) => vscode.Uri.joinPath(folder.uri, f)), ...(await scopedFiles(folder.uri))];
      for (const uri of uris) {
        const text = await this.readText(uri);
        if (text !== undefined) found.push({ path: vscode.workspace.asRelativePath(uri, folders.length > 1), text });
      }
    }
    return found;
  }

  private async readText(uri: vscode.Uri): Promise<string | undefined> {
    const key = uri.toString();
    try {
      const stat = await statOf(uri);
      if (stat.type !== vscode.FileType.File || stat.size > MAX_FILE_BYTES) return undefined;
      const cached = this.cache.get(key);
      if (cached && cached.mtime === stat.mtime && cached.size === stat.size) return cached.text;
      const text = new TextDecoder().decode(await bytesOf(uri));
      this.cache.set(key, { mtime: stat.mtime, size: stat.size, text });
      return text;
    } catch (e) {
      this.cache.delete(key);
      if (!isNotFound(e)) {
        this.logger.warn(`Could not read the instruction file ${uri.fsPath}: ${e instanceof Error ? e.message : String(e)}`);
      }
      return undefined;
    }
  }
}

/** The `*.instructions.md` files of a folder's `.github/instructions`, sorted by name. */
async function scopedFiles(folder: vscode.Uri): Promise<vscode.Uri[]> {
  const dir = vscode.Uri.joinPath(folder, SCOPED_FOLDER);
  try {
    // Most workspaces have no such folder: asked first, so reading it never logs a failure.
    if ((await statOf(dir)).type !== vscode.FileType.Directory) return [];
    const entries = await entriesOf(dir);
    return entries
      .filter(([name, type]) => type === vscode.FileType.File && name.toLowerCase().endsWith(SCOPED_INSTRUCTIONS_SUFFIX))
      .map(([name]) => name)
      .sort()
      .map((name) => vscode.Uri.joinPath(dir, name));
  } catch {
    return [];
  }
}

/**
 * The paths a turn has touched or attached, for instructions scoped by `applyTo`: the files in the session's
 * tool record and the files (or locations in files) attached to the request.
 */
export function touchedPaths(recorded: readonly string[], references: readonly vscode.ChatPromptReference[]): string[] {
  const attached = references.flatMap((r) => {
    if (r.value instanceof vscode.Uri) return [r.value.fsPath];
    if (r.value instanceof vscode.Location) return [r.value.uri.fsPath];
    return [];
  });
  return [...recorded, ...attached];
}

/**
 * Reads the instruction files again and keeps the ones that apply in the session's ledger (never summarized).
 * A failure is logged: the turn goes on with the instructions the ledger already holds.
 */
export async function refreshInstructions(
  session: ContextSession,
  references: readonly vscode.ChatPromptReference[],
  files: InstructionFiles,
  logger: Logger,
): Promise<void> {
  try {
    const touched = touchedPaths(
      session.ledger.tools.files.map((f) => f.path),
      references,
    );
    await session.setInstructions(await readInstructions(files, touched));
  } catch (e) {
    logger.warn(`The workspace's instruction files could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
}
