/**
 * Errors of transcript import. Callers branch on the class, never on the message text.
 */

/** Every description the format error lists, so the message says what would have been accepted. */
export const KNOWN_FORMATS_DESCRIPTION = [
  'Claude Code session JSONL (records with type user/assistant)',
  'OpenAI-style {messages:[...]} or a bare message array (tool_calls / tool messages)',
  'Anthropic-style messages with tool_use/tool_result blocks (including Cline SDK sessions)',
  'SWE-agent .traj ({history:[...], trajectory, info})',
  'mini-swe-agent trajectory (trajectory_format mini-swe-agent-1)',
  'OpenHands evaluation or resolver output JSONL (one {instance_id or issue, history:[...]} per line)',
  'VS Code Copilot Chat export ({requests:[...]} from "Chat: Export Chat…")',
  'Copilot chat replay ({prompts:[{prompt, logs}]})',
  'Codex CLI rollout JSONL (session_meta / response_item records)',
  'Gemini CLI session ({sessionId, messages:[{type: user|gemini}]}) or its JSON Lines log',
  'a saved Gemini history (a list of {role: user|model, parts}, or it as history / clientHistory / contents)',
  'Qwen Code session JSONL (records whose message has parts)',
  'OpenHands V1 event log (events typed by kind)',
].join(', ');

/** The text is no transcript format the importers know, or not the format that was asked for. */
export class TranscriptFormatError extends Error {
  override readonly name = 'TranscriptFormatError';

  constructor(readonly reason: string) {
    super(`Unrecognised transcript (${reason}); expected one of: ${KNOWN_FORMATS_DESCRIPTION}`);
  }
}

/** A line or entry could not be read and the caller asked to stop rather than skip it. */
export class MalformedTranscriptError extends Error {
  override readonly name = 'MalformedTranscriptError';

  /**
   * @param line 1-based line of the source, when the format is line-based.
   * @param reason What was wrong with it.
   */
  constructor(
    readonly line: number | undefined,
    readonly reason: string,
  ) {
    super(line === undefined ? `Malformed transcript: ${reason}` : `Malformed transcript at line ${line}: ${reason}`);
  }
}
