/**
 * What a tool call was about, in a few words: the commands it ran, the files it touched, or for any other tool its
 * name, what it looked for (a search's pattern or query, a fetch's address) and where. A search that found nothing
 * then says what was looked for, and an offloaded result says what it is the result of.
 */
import { PATH_KEYS, stringInput } from '../toolInputKeys';
import type { ToolCallBlock } from '../types';
import { classifyToolCall } from './toolActivity';

/** The commands a call ran, joined; the paths it touched; or what another tool was {@link calledWith}. */
export function callSubject(call: ToolCallBlock): string | undefined {
  const activity = classifyToolCall(call);
  if (activity.kind === 'command') return activity.commands.join(' ; ');
  if (activity.kind === 'file') return activity.paths.join(', ');
  return calledWith(call);
}

/** Longest input string a tool's call is named by, in characters: longer ones are content, not what it was asked for. @default 120 */
const MAX_CALLED_WITH_CHARS = 120;

/** Keys tools use for what a search or a fetch looks for: `Glob`'s and `grep`'s pattern, a web search's query, a URL. */
const SOUGHT_KEYS = ['pattern', 'query', 'regex', 'glob', 'q', 'search', 'search_term', 'searchTerm', 'keyword', 'url'];

/** `Glob *.toml in config`, `web_search ctx context manager`; undefined when the input holds no short string. */
export function calledWith(call: ToolCallBlock): string | undefined {
  const searched = searchedFor(call);
  if (searched !== undefined) return searched;
  for (const value of Object.values(call.input)) {
    const text = shortString(value);
    if (text !== undefined) return `${call.name} ${text}`;
  }
  return undefined;
}

/**
 * What a search or a fetch looked for and where (`Grep retry_after in lib`, `web_fetch https://…`), by its input's
 * shape; undefined for a call that names nothing it looks for.
 */
export function searchedFor(call: ToolCallBlock): string | undefined {
  const sought = shortString(stringInput(call.input, SOUGHT_KEYS)?.value);
  if (sought === undefined) return undefined;
  const where = shortString(stringInput(call.input, PATH_KEYS)?.value);
  const named = where === undefined ? `${call.name} ${sought}` : `${call.name} ${sought} in ${where}`;
  return named.length <= MAX_CALLED_WITH_CHARS ? named : `${call.name} ${sought}`;
}

/** The value, trimmed, when it is a string on one line short enough to name a call by. */
function shortString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text.length > 0 && text.length <= MAX_CALLED_WITH_CHARS && !text.includes('\n') ? text : undefined;
}
