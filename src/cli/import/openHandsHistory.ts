/**
 * One OpenHands event stream to messages. Actions the agent took through a tool become tool calls;
 * observations answer them, paired by `cause` (the action's event id) or the tool call id, and by
 * position only in the older format that has neither. `llm_metrics` is bookkeeping, never read.
 *
 * The older resolver output has events without `id`, `source`, `cause` or `args` (the arguments
 * are the event's own fields), sometimes as `[action, observation]` pairs. There, the message that
 * repeats the run's instruction is the user's task and other messages are the agent's.
 * What the environment adds (recalled repository instructions and microagents, observations
 * answering no action, messages from the environment) is injected text.
 */
import { type Block, injectedTextBlock, textBlock, type TextBlock, toolResultBlock } from '../../engine/host/messages';
import { addAgentSummary } from './agentSummary';
import type { ImportSink } from './importSink';
import { arrayField, idField, isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import type { MessageDraft } from './messageDraft';
import { eventArgs, openHandsCall } from './openHandsToolCall';
import { renderRecall } from './openHandsRecall';
import { IMAGE_PLACEHOLDER } from './renderContent';
import { toEpochMs } from './timestamps';

/** Actions that are not tool calls (the manifest also leaves them out of its call counts). */
const CONVERSATION_ACTIONS = new Set(['message', 'system', 'recall', 'change_agent_state', 'null']);
/** The condenser's own events: its summary of the events it forgot, and its requests to condense. */
const CONDENSATION_ACTIONS = new Set(['condensation', 'condensation_request']);
const CONDENSATION_OBSERVATIONS = new Set(['condense']);
/** Observations that only report the controller's state. */
const STATE_OBSERVATIONS = new Set(['agent_state_changed', 'null']);

interface Event {
  readonly raw: JsonObject;
  readonly sourceId: string;
  readonly at?: number;
}

/** The assistant message of the last model response, which later calls of the same response join. */
interface OpenResponse {
  readonly responseId: string;
  readonly draft: MessageDraft;
}

/** What the session says about itself beside its history. */
export interface HistoryContext {
  readonly sessionId: string;
  /** 1-based line of the session in the file. */
  readonly line?: number;
  /** The run's instruction, which the task message of the older format repeats. */
  readonly instruction?: string;
  /** Keeps the agent's condensation summaries, marked and injected, instead of leaving them out. */
  readonly keepNativeCompaction: boolean;
}

/** Adds the events of one session's history to the sink's current session. */
export function importOpenHandsHistory(rawHistory: readonly unknown[], context: HistoryContext, sink: ImportSink): void {
  const { sessionId, line } = context;
  // The older output stores [action, observation] pairs; the events inside are what counts.
  const history = rawHistory.flatMap((entry) => (Array.isArray(entry) ? entry : [entry]));
  const positional = !history.some((event) => isJsonObject(event) && ('cause' in event || 'tool_call_metadata' in event));
  const reader = new HistoryReader(sink, positional, line, context.instruction?.trim(), context.keepNativeCompaction);
  history.forEach((raw, index) => {
    sink.countRecord();
    if (!isJsonObject(raw)) return sink.malformed(`${sessionId} history[${index}] is not an event`, line);
    reader.read({ raw, sourceId: `${sessionId}/event-${idField(raw, 'id') ?? `at-${index}`}`, at: toEpochMs(raw.timestamp) });
  });
}

class HistoryReader {
  private readonly callByAction = new Map<string, string>();
  private readonly unanswered: string[] = [];
  private openResponse: OpenResponse | undefined;

  constructor(
    private readonly sink: ImportSink,
    private readonly positional: boolean,
    private readonly line: number | undefined,
    private readonly instruction: string | undefined,
    private readonly keepNativeCompaction: boolean,
  ) {}

  read(event: Event): void {
    const action = stringField(event.raw, 'action');
    const observation = stringField(event.raw, 'observation');
    if (action !== undefined && CONDENSATION_ACTIONS.has(action)) this.summary(event, stringField(eventArgs(event.raw), 'summary') ?? '');
    // The observation repeats the action's summary: counted, never kept twice.
    else if (observation !== undefined && CONDENSATION_OBSERVATIONS.has(observation)) this.sink.skip('native-compaction-summary');
    else if (action !== undefined && !CONVERSATION_ACTIONS.has(action)) this.toolAction(event, action);
    else if (action !== undefined) this.conversationAction(event, action);
    else if (observation === 'recall') {
      this.addText(event, 'user', renderRecall(objectField(event.raw, 'extras') ?? {}), 'recall-observation', true);
    } else if (observation !== undefined && !STATE_OBSERVATIONS.has(observation)) this.observation(event, observation);
    else if (observation !== undefined) this.sink.skip(`${observation}-observation`);
    else this.sink.skip('unknown-event', { line: this.line, reason: `${event.sourceId} is neither an action nor an observation; skipped` });
  }

  /** The agent's summary of what it forgot is its compaction; a request to condense carries none and is left out. */
  private summary(event: Event, text: string): void {
    this.openResponse = undefined;
    const source = {
      sourceId: event.sourceId,
      ...(event.at === undefined ? {} : { at: event.at }),
      ...(this.line === undefined ? {} : { line: this.line }),
    };
    addAgentSummary(text, source, this.sink, this.keepNativeCompaction);
  }

  private toolAction(event: Event, action: string): void {
    const call = openHandsCall(event.raw, action, event.sourceId);
    if (this.openResponse !== undefined && call.responseId === this.openResponse.responseId) {
      this.openResponse.draft.blocks.push(call.block);
    } else {
      const draft = this.sink.open(event.sourceId, 'assistant', event.at, this.line);
      draft.blocks.push(...(call.text === '' ? [] : [textBlock(call.text)]), call.block);
      this.openResponse = call.responseId === undefined ? undefined : { responseId: call.responseId, draft };
    }
    this.callByAction.set(idField(event.raw, 'id') ?? event.sourceId, call.block.id);
    this.unanswered.push(call.block.id);
  }

  private conversationAction(event: Event, action: string): void {
    this.openResponse = undefined;
    const args = eventArgs(event.raw);
    const content = stringField(args, 'content') ?? stringField(event.raw, 'message') ?? '';
    if (action === 'system') {
      const tools = arrayField(args, 'tools') ?? [];
      if (tools.length > 0) {
        this.sink.warn(`${event.sourceId}: ${tools.length} tool definitions are not part of the message model; not imported`, this.line);
      }
      this.addText(event, 'system', content, 'empty-system');
    } else if (action === 'message') {
      const images = (arrayField(args, 'image_urls') ?? arrayField(args, 'images_urls') ?? []).map(() => textBlock(IMAGE_PLACEHOLDER));
      this.sink.countPlaceholders(images.length);
      const author = this.author(event.raw, content);
      const text: TextBlock[] = content === '' ? [] : [author === 'environment' ? injectedTextBlock(content) : textBlock(content)];
      const blocks: Block[] = [...text, ...images];
      if (this.sink.add(event.sourceId, [{ role: author === 'agent' ? 'assistant' : 'user', blocks }], event.at, this.line).length === 0) {
        this.sink.skip('empty-message');
      }
    } else {
      // A recall action only asks for context (its observation carries it); state changes are bookkeeping.
      this.sink.skip(`${action}-action`);
    }
  }

  private observation(event: Event, observation: string): void {
    const callId = this.answeredCall(event.raw);
    const content = stringField(event.raw, 'content') ?? stringField(event.raw, 'message') ?? '';
    if (callId === undefined) {
      // An observation that answers no recorded action (a rejected call's error) was still shown to the agent.
      this.addText(event, 'user', content, `${observation}-observation`, true);
      return;
    }
    this.unanswered.splice(this.unanswered.indexOf(callId), 1);
    this.sink.add(
      event.sourceId,
      [{ role: 'tool', blocks: [toolResultBlock(callId, content, observation === 'error')] }],
      event.at,
      this.line,
    );
  }

  private answeredCall(raw: JsonObject): string | undefined {
    const cause = idField(raw, 'cause');
    const byCause = cause === undefined ? undefined : this.callByAction.get(cause);
    if (byCause !== undefined && this.unanswered.includes(byCause)) return byCause;
    const byId = stringField(objectField(raw, 'tool_call_metadata') ?? {}, 'tool_call_id');
    if (byId !== undefined && this.unanswered.includes(byId)) return byId;
    return this.positional ? this.unanswered[0] : undefined;
  }

  /** Who wrote a message event: its `source`, or in the older format the user for the instruction and the agent otherwise. */
  private author(raw: JsonObject, content: string): 'user' | 'agent' | 'environment' {
    const source = stringField(raw, 'source');
    if (source === 'user' || source === 'agent' || source === 'environment') return source;
    return this.instruction !== undefined && this.instruction !== '' && content.trim() === this.instruction ? 'user' : 'agent';
  }

  private addText(event: Event, role: 'system' | 'user', text: string, skippedKind: string, injected = false): void {
    if (text === '') this.sink.skip(skippedKind);
    else this.sink.add(event.sourceId, [{ role, blocks: [injected ? injectedTextBlock(text) : textBlock(text)] }], event.at, this.line);
  }
}
