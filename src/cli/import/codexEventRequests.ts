/**
 * Which `user_message` events of a Codex rollout are the only record of a request. Codex logs what
 * the user typed twice, as a user `response_item` (what the model saw) and as a `user_message`
 * event (what the UI showed), but some rollouts hold only the event. Both belong to the same turn:
 * the span of records between two things the model produced. Within a span, events pair in order
 * with the user items that carry a request (not only Codex's own context); an event left without
 * a partner is imported. The decision is made by position, never by comparing texts, so two
 * different requests are never merged into one.
 */
import { splitInjectedTags } from '../../engine/host/messages';
import type { CodexItem } from './codexRecord';
import { CODEX_INJECTED_TAGS, isAgentsFileText } from './codexUserText';
import { arrayField, isJsonObject, stringField } from './jsonShape';

/** Indexes (into the records) of the `user_message` events no user item stands for. */
export function unpairedRequestEvents(items: readonly (CodexItem | undefined)[]): ReadonlySet<number> {
  const unpaired = new Set<number>();
  let events: number[] = [];
  let requests = 0;
  const close = (): void => {
    for (const index of events.slice(requests)) unpaired.add(index);
    events = [];
    requests = 0;
  };
  items.forEach((item, index) => {
    if (item === undefined) return;
    if (item.kind === 'event_msg' && item.payload.type === 'user_message') events.push(index);
    else if (isUserItem(item)) requests += carriesRequest(item) ? 1 : 0;
    else if (isModelOutput(item)) close();
  });
  close();
  return unpaired;
}

/** True for an event of what Codex itself added (instructions, environment) rather than what was typed. */
export function isInjectedEvent(item: CodexItem): boolean {
  const kind = stringField(item.payload, 'kind');
  return kind !== undefined && kind !== 'plain';
}

function isUserItem(item: CodexItem): boolean {
  return item.kind === 'response_item' && item.payload.type === 'message' && item.payload.role === 'user';
}

/** Something the model produced or received as a result closes the turn of the requests before it. */
function isModelOutput(item: CodexItem): boolean {
  if (item.kind === 'compacted') return true;
  if (item.kind !== 'response_item') return false;
  const role = item.payload.role;
  return item.payload.type !== 'message' || (role !== 'user' && role !== 'developer' && role !== 'system');
}

/** A user item that holds more than Codex's AGENTS.md and tagged context. */
function carriesRequest(item: CodexItem): boolean {
  return (arrayField(item.payload, 'content') ?? []).some((part) => {
    if (!isJsonObject(part)) return false;
    if (part.type === 'input_image') return true;
    const text = stringField(part, 'text') ?? '';
    if (text.trim() === '' || isAgentsFileText(text)) return false;
    return splitInjectedTags(text, CODEX_INJECTED_TAGS).some((block) => block.injected !== true && block.text.trim() !== '');
  });
}
