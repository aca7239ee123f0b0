/**
 * What ctx's PreCompact hook does: copies the session transcript Copilot names into ctx's inbox folder (in ctx's
 * workspace storage), where the extension imports it into a ctx session's archive. Copilot's transcript only grows,
 * so the newest copy of a session replaces the older one. Only a plain file of Copilot's own transcripts folder is
 * copied (`transcriptSource.ts`); nothing leaves the machine; no other file is touched.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
// The hook is bundled on its own: the probe's file, not the storage surface that would bring the whole store in.
import { localProcessProbe } from '../engine/storage/processProbe';
import { parseHookInput, safeSessionName } from './hookInput';
import { openTranscript } from './transcriptSource';

/** Bytes of a transcript copied at most: above this the hook leaves it (and says so) rather than stall compaction. */
export const MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024;
/** A copy is written beside its place under this suffix, then renamed. */
const PARTIAL_SUFFIX = '.partial';

/** What one run of the hook did, for its output line. */
export interface HookOutcome {
  readonly archived: boolean;
  readonly message: string;
  /** The copy in the inbox, when one was written. */
  readonly file?: string;
}

/** Copies the transcript named by the hook input into `inbox` as `<session>.jsonl`; never throws. */
export async function archiveTranscript(hookInputText: string, inbox: string): Promise<HookOutcome> {
  try {
    const input = parseHookInput(hookInputText);
    if (!input.transcriptPath.toLowerCase().endsWith('.jsonl')) {
      return { archived: false, message: `ctx: ${input.transcriptPath} is not a JSON Lines transcript; nothing archived` };
    }
    const source = await openTranscript(input.transcriptPath, inbox, MAX_TRANSCRIPT_BYTES);
    if (!source.ok) return { archived: false, message: `ctx: nothing archived: ${source.why}` };
    try {
      await fs.mkdir(inbox, { recursive: true });
      await removeAbandonedCopies(inbox);
      const file = path.join(inbox, `${safeSessionName(input.sessionId)}.jsonl`);
      await copyWhole(source.file, source.size, file);
      return { archived: true, message: `ctx: archived Copilot's transcript (${source.size} bytes) before it compacts`, file };
    } finally {
      await source.file.close();
    }
  } catch (e) {
    return { archived: false, message: `ctx: nothing archived: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * Writes the first `size` bytes of `from` beside `file`, then renames it into place: the extension never reads half a
 * copy, and a copy cut short (a full disk, an error) is removed rather than left beside.
 */
async function copyWhole(from: fs.FileHandle, size: number, file: string): Promise<void> {
  const partial = `${file}.${process.pid}${PARTIAL_SUFFIX}`;
  try {
    const to = await fs.open(partial, 'w');
    try {
      const buffer = Buffer.alloc(Math.min(size, 1024 * 1024));
      for (let done = 0; done < size;) {
        const { bytesRead } = await from.read(buffer, 0, Math.min(buffer.length, size - done), done);
        if (bytesRead === 0) break;
        await to.write(buffer, 0, bytesRead);
        done += bytesRead;
      }
    } finally {
      await to.close();
    }
    await fs.rename(partial, file);
  } catch (e) {
    await fs.rm(partial, { force: true }).catch(() => undefined);
    throw e;
  }
}

/** Removes copies that a hook run killed before it renamed them left behind (their process is gone). */
async function removeAbandonedCopies(inbox: string): Promise<void> {
  const probe = localProcessProbe();
  const names = await fs.readdir(inbox).catch(() => [] as string[]);
  for (const name of names) {
    const pid = /\.(\d+)\.partial$/.exec(name)?.[1];
    if (pid !== undefined && !probe.isAlive(Number(pid))) await fs.rm(path.join(inbox, name), { force: true }).catch(() => undefined);
  }
}
