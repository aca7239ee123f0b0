import type { TranscriptFormat } from './import/importTypes';

/** Every format name, as a record so a format added to the importers fails to compile until it is listed. */
const FORMAT_NAMES: Readonly<Record<TranscriptFormat, true>> = {
  'claude-code': true,
  openai: true,
  anthropic: true,
  'mini-swe-agent': true,
  openhands: true,
  'swe-agent': true,
  'copilot-chat': true,
  'copilot-chatreplay': true,
  codex: true,
  'gemini-cli': true,
  opencode: true,
  'copilot-cli': true,
  pi: true,
  aider: true,
};

/** The names `--format` accepts. */
export const TRANSCRIPT_FORMATS = Object.keys(FORMAT_NAMES) as readonly TranscriptFormat[];

export function isTranscriptFormat(name: string): name is TranscriptFormat {
  return Object.prototype.hasOwnProperty.call(FORMAT_NAMES, name);
}
