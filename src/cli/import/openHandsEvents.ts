/**
 * One OpenHands V1 (software-agent-sdk) event history to messages. Events are typed by `kind`:
 * `SystemPromptEvent` (the system prompt), `MessageEvent` (an `llm_message` of the user or the
 * agent), `ActionEvent` (one tool call, `tool_call {id, name, arguments}`, with the reply's
 * `thought`; calls of one `llm_response_id` share a message), and the events answering a call by
 * `tool_call_id`: `ObservationEvent`, `AgentErrorEvent`, `UserRejectObservation`. The agent's own
 * condensation summaries are left out (ctx does the compressing); state and pause events are
 * bookkeeping. A kind nobody here knows is counted and named in a warning.
 */
import { type Block, injectedTextBlock, type TextBlock, textBlock, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import { addAgentSummary } from './agentSummary';
import { dataText } from './dataText';
import type { ImportSink } from './importSink';
import { arrayField, idField, isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import type { MessageDraft } from './messageDraft';
import { renderContent, type RenderedContent } from './renderContent';
import { toEpochMs } from './timestamps';
import { toToolInput } from './toolInput';

/** Event kinds that carry what the model saw. */
const CONVERSATION_KINDS = new Set([
  'SystemPromptEvent',
  'MessageEvent',
  'ActionEvent',
  'ObservationEvent',
  'AgentErrorEvent',
  'UserRejectObservation',
]);
/** The agent's own summaries of forgotten events. */
const CONDENSATION_KINDS = new Set(['Condensation', 'CondensationSummaryEvent']);
/** Events that only report or steer the run. */
const BOOKKEEPING_KINDS = new Set([
  'PauseEvent',
  'ConversationStateUpdateEvent',
  'ConversationStateEvent',
  'CondensationRequest',
  'ConversationErrorEvent',
  'TokenEvent',
]);

/** True when the event is one of the sdk's, typed by `kind`. */
export function isOpenHandsV1Event(event: unknown): boolean {
  if (!isJsonObject(event)) return false;
  const kind = stringField(event, 'kind') ?? '';
  return CONVERSATION_KINDS.has(kind) || CONDENSATION_KINDS.has(kind);
}

/** What the session says about itself beside its history. */
export interface EventsContext {
  readonly sessionId: string;
  /** 1-based line of the session in the file. */
  readonly line?: number;
  /** The run's task, the user's request when no user message in the history carries it. */
  readonly instruction?: string;
  /** Keeps the agent's condensation summaries, marked and injected, instead of leaving them out. */
  readonly keepNativeCompaction: boolean;
}

/** Adds the events of one V1 history to the sink's current session. */
export function importOpenHandsEvents(history: readonly unknown[], context: EventsContext, sink: ImportSink): void {
  const reader = new EventReader(sink, context);
  const asks = history.some((raw) => isJsonObject(raw) && raw.kind === 'MessageEvent' && raw.source === 'user');
  const instruction = context.instruction?.trim() ?? '';
  let told = asks || instruction === '';
  const unknown = new Set<string>();
  history.forEach((raw, index) => {
    sink.countRecord();
    if (!isJsonObject(raw)) return sink.malformed(`${context.sessionId} history[${index}] is not an event`, context.line);
    const kind = stringField(raw, 'kind') ?? 'untyped';
    // The task given only as the line's instruction comes after the system prompt, where the agent read it.
    if (!told && kind !== 'SystemPromptEvent') {
      told = true;
      sink.add(`${context.sessionId}/instruction`, [{ role: 'user', blocks: [textBlock(instruction)] }], undefined, context.line);
    }
    const event = {
      raw,
      kind,
      sourceId: `${context.sessionId}/event-${idField(raw, 'id') ?? `at-${index}`}`,
      at: toEpochMs(raw.timestamp),
    };
    if (!reader.read(event)) unknown.add(kind);
  });
  if (!told) sink.add(`${context.sessionId}/instruction`, [{ role: 'user', blocks: [textBlock(instruction)] }], undefined, context.line);
  if (unknown.size > 0) {
    sink.warn(`${context.sessionId}: event kind(s) ${[...unknown].join(', ')} not known to be model context; skipped`, context.line);
  }
}

interface Event {
  readonly raw: JsonObject;
  readonly kind: string;
  readonly sourceId: string;
  readonly at?: number;
}

class EventReader {
  /** The assistant message of the last model response, which later calls of the same response join. */
  private open: { readonly responseId: string; readonly draft: MessageDraft } | undefined;

  constructor(
    private readonly sink: ImportSink,
    private readonly context: EventsContext,
  ) {}

  /** Reads one event; false when its kind is unknown (it is then counted as skipped). */
  read(event: Event): boolean {
    if (event.kind !== 'ActionEvent') this.open = undefined;
    switch (event.kind) {
      case 'SystemPromptEvent':
        return this.systemPrompt(event);
      case 'MessageEvent':
        return this.message(event);
      case 'ActionEvent':
        return this.action(event);
      case 'ObservationEvent':
        return this.result(event, observationText(objectField(event.raw, 'observation')), isError(event.raw.observation));
      case 'AgentErrorEvent':
        return this.result(event, stringField(event.raw, 'error') ?? '', true);
      case 'UserRejectObservation':
        return this.result(event, `Action rejected: ${stringField(event.raw, 'rejection_reason') ?? ''}`, true);
      default:
        if (CONDENSATION_KINDS.has(event.kind)) this.summary(event);
        else this.sink.skip(BOOKKEEPING_KINDS.has(event.kind) ? event.kind : `unknown-${event.kind}`);
        return CONDENSATION_KINDS.has(event.kind) || BOOKKEEPING_KINDS.has(event.kind);
    }
  }

  private summary(event: Event): void {
    const source = { sourceId: event.sourceId, ...(event.at === undefined ? {} : { at: event.at }), ...lineOf(this.context) };
    addAgentSummary(stringField(event.raw, 'summary') ?? '', source, this.sink, this.context.keepNativeCompaction);
  }

  private systemPrompt(event: Event): boolean {
    const text = renderContent(event.raw.system_prompt).text;
    const tools = arrayField(event.raw, 'tools') ?? [];
    if (tools.length > 0) {
      this.sink.warn(
        `${event.sourceId}: ${tools.length} tool definitions are not part of the message model; not imported`,
        this.context.line,
      );
    }
    this.add(event, 'system', text === '' ? [] : [textBlock(text)]);
    return true;
  }

  private message(event: Event): boolean {
    const message = objectField(event.raw, 'llm_message') ?? {};
    const source = stringField(event.raw, 'source');
    const role = stringField(message, 'role') ?? (source === 'agent' ? 'assistant' : 'user');
    const content = this.renderedBlocks(event, message.content);
    if (isNonEmpty(message.reasoning_content) || (arrayField(message, 'thinking_blocks') ?? []).length > 0) this.sink.dropThinking(1);
    // What the agent's context added to a message (skills, repository rules) was not typed by its author.
    const extended = this.rendered(event, event.raw.extended_content);
    // The environment's messages are injected whole; the author's keep a part of an unknown type injected.
    const blocks: Block[] = source === 'environment' ? content.map((b) => injectedTextBlock(b.text)) : [...content];
    if (extended !== '') blocks.push(injectedTextBlock(extended));
    this.add(event, role === 'assistant' ? 'assistant' : role === 'system' ? 'system' : 'user', blocks);
    return true;
  }

  private action(event: Event): boolean {
    const call = objectField(event.raw, 'tool_call') ?? {};
    const id = idField(call, 'id') ?? idField(event.raw, 'tool_call_id') ?? `${event.sourceId}:call`;
    const name = stringField(call, 'name') ?? stringField(event.raw, 'tool_name') ?? 'unknown';
    const block = toolCallBlock(id, name, toToolInput(call.arguments ?? objectField(event.raw, 'action')));
    if (isNonEmpty(event.raw.reasoning_content) || (arrayField(event.raw, 'thinking_blocks') ?? []).length > 0) this.sink.dropThinking(1);
    const responseId = stringField(event.raw, 'llm_response_id');
    if (this.open !== undefined && responseId === this.open.responseId) {
      this.open.draft.blocks.push(block);
      return true;
    }
    const draft = this.sink.open(event.sourceId, 'assistant', event.at, this.context.line);
    const thought = this.rendered(event, event.raw.thought);
    draft.blocks.push(...(thought === '' ? [] : [textBlock(thought)]), block);
    this.open = responseId === undefined ? undefined : { responseId, draft };
    return true;
  }

  private result(event: Event, text: string, error: boolean): boolean {
    const id = idField(event.raw, 'tool_call_id') ?? '';
    this.sink.add(event.sourceId, [{ role: 'tool', blocks: [toolResultBlock(id, text, error)] }], event.at, this.context.line);
    return true;
  }

  private rendered(event: Event, content: unknown): string {
    return this.renderedContent(event, content).text;
  }

  private renderedBlocks(event: Event, content: unknown): readonly TextBlock[] {
    return this.renderedContent(event, content).blocks;
  }

  private renderedContent(event: Event, content: unknown): RenderedContent {
    const rendered = renderContent(content);
    this.sink.countPlaceholders(rendered.placeholders);
    if (rendered.unknownTypes.length > 0) {
      this.sink.warn(
        `${event.sourceId}: unknown content part type(s) ${[...new Set(rendered.unknownTypes)].join(', ')} kept as JSON text`,
        this.context.line,
      );
    }
    return rendered;
  }

  private add(event: Event, role: 'system' | 'user' | 'assistant', blocks: Block[]): void {
    if (this.sink.add(event.sourceId, [{ role, blocks }], event.at, this.context.line).length === 0) this.sink.skip('empty-message');
  }
}

/**
 * An observation's text: its `content` parts (the sdk's current shape), or the `output`/`text` of
 * older tool observations, or else all its fields as text so nothing is lost.
 */
function observationText(observation: JsonObject | undefined): string {
  if (observation === undefined) return '';
  const content = observation.content;
  if (Array.isArray(content) || typeof content === 'string') return renderContent(content).text;
  const output = stringField(observation, 'output') ?? stringField(observation, 'text');
  if (output !== undefined) return output;
  const rest = Object.fromEntries(Object.entries(observation).filter(([key]) => key !== 'kind'));
  return dataText(rest);
}

function isError(observation: unknown): boolean {
  return isJsonObject(observation) && observation.is_error === true;
}

function isNonEmpty(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

function lineOf(context: EventsContext): { line?: number } {
  return context.line === undefined ? {} : { line: context.line };
}
