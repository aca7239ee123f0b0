/**
 * Reads of workspace files that do not wait on the window. Every `vscode.workspace.fs` call, even for a file on
 * the extension host's own disk, first asks the window to activate the scheme's provider and waits for its answer;
 * while a long chat answer keeps the window busy, each of those waits grows with the answer. Files on this
 * machine's disk (`file:` URIs) are read with node's fs; any other scheme goes through `vscode.workspace.fs`.
 */
import { promises as fsp, type Stats } from 'fs';
import * as vscode from 'vscode';

/** What a read needs to know about a file. */
export interface LocalStat {
  readonly type: vscode.FileType;
  readonly mtime: number;
  readonly size: number;
}

const isLocal = (uri: vscode.Uri) => uri.scheme === 'file';

function fileType(s: { isFile(): boolean; isDirectory(): boolean }): vscode.FileType {
  return s.isFile() ? vscode.FileType.File : s.isDirectory() ? vscode.FileType.Directory : vscode.FileType.Unknown;
}

/** The kind, modification time and size of a file (links followed). */
export async function statOf(uri: vscode.Uri): Promise<LocalStat> {
  if (!isLocal(uri)) return vscode.workspace.fs.stat(uri);
  const s: Stats = await fsp.stat(uri.fsPath);
  return { type: fileType(s), mtime: s.mtimeMs, size: s.size };
}

/** A file's bytes. */
export async function bytesOf(uri: vscode.Uri): Promise<Uint8Array> {
  return isLocal(uri) ? fsp.readFile(uri.fsPath) : vscode.workspace.fs.readFile(uri);
}

/** A folder's entries, as `vscode.workspace.fs.readDirectory` gives them. */
export async function entriesOf(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
  if (!isLocal(uri)) return vscode.workspace.fs.readDirectory(uri);
  return (await fsp.readdir(uri.fsPath, { withFileTypes: true })).map((d) => [d.name, fileType(d)]);
}

/** Whether a failed read means the file (or a folder on its path) is not there. */
export function isNotFound(e: unknown): boolean {
  if (e instanceof vscode.FileSystemError) return e.code === 'FileNotFound';
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
