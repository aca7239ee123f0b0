/**
 * What ctx's PreCompact hook does: copies the session transcript Copilot names into ctx's inbox folder (in ctx's
 * workspace storage), where the extension imports it into a ctx session's archive. Copilot's transcript only grows,
 * so the newest copy of a session replaces the older one. Nothing leaves the machine; no other file is touched.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseHookInput, safeSessionName } from './hookInput';

/** Bytes of a transcript copied at most: above this the hook leaves it (and says so) rather than stall compaction. */
export const MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024;

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
    const stat = await fs.stat(input.transcriptPath).catch(() => undefined);
    if (!stat?.isFile()) return { archived: false, message: `ctx: no transcript at ${input.transcriptPath}; nothing archived` };
    if (stat.size > MAX_TRANSCRIPT_BYTES) {
      return { archived: false, message: `ctx: the transcript is ${stat.size} bytes, over ${MAX_TRANSCRIPT_BYTES}; nothing archived` };
    }
    await fs.mkdir(inbox, { recursive: true });
    const file = path.join(inbox, `${safeSessionName(input.sessionId)}.jsonl`);
    // Written beside, then renamed: the extension never reads half a copy.
    const partial = `${file}.${process.pid}.partial`;
    await fs.copyFile(input.transcriptPath, partial);
    await fs.rename(partial, file);
    return { archived: true, message: `ctx: archived Copilot's transcript (${stat.size} bytes) before it compacts`, file };
  } catch (e) {
    return { archived: false, message: `ctx: nothing archived: ${e instanceof Error ? e.message : String(e)}` };
  }
}
