/**
 * What the user typed in a real transcript, read straight from the source where the format
 * records it apart from what the agent added: the test oracle for "every user message is kept as
 * the user's own words". Formats that do not record it apart give undefined.
 */
import type { TranscriptFormat } from '../../../src/cli/import/importTypes';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The typed prompts of a transcript's text, or undefined for a format that does not keep them apart. */
export function typedPrompts(format: TranscriptFormat, text: string): string[] | undefined {
  switch (format) {
    case 'copilot-chat':
      return list((JSON.parse(text) as Json).requests).flatMap((r) => (isObject(r) && isObject(r.message) ? [String(r.message.text)] : []));
    case 'copilot-chatreplay':
      return [...new Set(list((JSON.parse(text) as Json).prompts).flatMap((p) => (isObject(p) ? [String(p.prompt)] : [])))];
    case 'codex':
      return lines(text).flatMap((r) =>
        r.type === 'event_msg' && isObject(r.payload) && r.payload.type === 'user_message' ? [String(r.payload.message)] : [],
      );
    case 'gemini-cli':
      return list((JSON.parse(text) as Json).messages).flatMap((m) =>
        isObject(m) && m.type === 'user' && typeof m.content === 'string' ? [m.content] : [],
      );
    case 'openhands':
      return lines(text).flatMap((session) =>
        list(session.history).flatMap((e) =>
          isObject(e) && e.source === 'user' && e.action === 'message' && isObject(e.args) ? [String(e.args.content)] : [],
        ),
      );
    case 'anthropic':
      return list((JSON.parse(text) as Json).messages).flatMap((m) =>
        isObject(m) && m.role === 'user'
          ? list(m.content).flatMap((b) => (isObject(b) && b.type === 'text' && typeof b.text === 'string' ? [b.text] : []))
          : [],
      );
    case 'copilot-cli':
      return lines(text).flatMap((r) =>
        r.type === 'user.message' &&
        isObject(r.data) &&
        r.data.source === undefined &&
        typeof r.data.content === 'string' &&
        r.data.content.trim() !== ''
          ? [r.data.content]
          : [],
      );
    case 'opencode':
      return list((JSON.parse(text) as Json).messages).flatMap((m) =>
        isObject(m) && isObject(m.info) && m.info.role === 'user'
          ? list(m.parts).flatMap((p) =>
              isObject(p) && p.type === 'text' && p.synthetic !== true && p.ignored !== true && typeof p.text === 'string' ? [p.text] : [],
            )
          : [],
      );
    default:
      return undefined;
  }
}

function lines(text: string): Json[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown)
    .filter(isObject);
}
