/**
 * What Copilot Chat's Local harness writes on a hook's stdin (0.67, `ChatHookService.executeHook`): one JSON object
 * with `hook_event_name`, `timestamp`, `session_id` and `transcript_path` (its session transcript, JSON Lines in
 * Copilot's workspace storage), plus the event's own fields (`trigger: "auto"` for PreCompact).
 */

/** The fields ctx's hook uses. */
export interface HookInput {
  readonly event: string;
  readonly sessionId: string;
  readonly transcriptPath: string;
}

/** Characters of the hook's stdin read at most: the input is a small object; anything far larger is not it. */
export const MAX_HOOK_INPUT_CHARS = 1_000_000;

/** Why a hook input was not usable, in words for the hook's output. */
export class HookInputError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'HookInputError';
  }
}

/** Reads the hook input; throws `HookInputError` when it is not Copilot's shape. */
export function parseHookInput(text: string): HookInput {
  if (text.length > MAX_HOOK_INPUT_CHARS) throw new HookInputError(`the hook input is over ${MAX_HOOK_INPUT_CHARS} characters`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HookInputError('the hook input is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HookInputError('the hook input is not a JSON object');
  const fields = value as Record<string, unknown>;
  const transcriptPath = fields.transcript_path;
  if (typeof transcriptPath !== 'string' || transcriptPath === '') throw new HookInputError('the hook input has no transcript_path');
  const sessionId = typeof fields.session_id === 'string' && fields.session_id !== '' ? fields.session_id : undefined;
  return {
    event: typeof fields.hook_event_name === 'string' ? fields.hook_event_name : '',
    // Copilot names the transcript after its session: the file name stands in when the id is missing.
    sessionId: sessionId ?? baseName(transcriptPath).replace(/\.jsonl$/i, ''),
    transcriptPath,
  };
}

/** A session id as a file name: only letters, digits, `_`, `.` and `-` (what Copilot itself keeps in its names). */
export function safeSessionName(sessionId: string): string {
  const name = sessionId
    .replace(/[^A-Za-z0-9_.-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 120);
  return name === '' ? 'session' : name;
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
