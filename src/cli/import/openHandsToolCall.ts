/**
 * The tool call an OpenHands action event stands for, as close as the event allows to what the
 * model actually sent.
 */
import { toolCallBlock, type ToolCallBlock, type ToolInput } from '../../engine/host/messages';
import { arrayField, isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import { toToolInput } from './toolInput';

/** A call, the reply text that came with it, and the model response it belongs to when known. */
export interface OpenHandsCall {
  readonly block: ToolCallBlock;
  readonly text: string;
  /** Id of the model response: calls that share one belong in one assistant message. */
  readonly responseId?: string;
}

/** Fields of an event itself, as opposed to the arguments an older event carries beside them. */
const EVENT_FIELDS = new Set([
  'id',
  'source',
  'cause',
  'timestamp',
  'action',
  'observation',
  'message',
  'tool_call_metadata',
  'llm_metrics',
  'extras',
]);

/**
 * The action's arguments: its `args` object, or, in the older resolver output whose events have no
 * `args`, the event's own fields other than the event's bookkeeping.
 */
export function eventArgs(raw: JsonObject): JsonObject {
  const args = objectField(raw, 'args');
  if (args !== undefined) return args;
  return Object.fromEntries(Object.entries(raw).filter(([key]) => !EVENT_FIELDS.has(key)));
}

/**
 * `tool_call_metadata.model_response` is the raw reply, the only record of the exact arguments and
 * text (`args` adds runtime fields, and for `think` glues the reply's text onto the argument). It
 * is read for that and otherwise not imported. Older events without it fall back to `args`.
 */
export function openHandsCall(raw: JsonObject, action: string, sourceId: string): OpenHandsCall {
  const metadata = objectField(raw, 'tool_call_metadata') ?? {};
  const id = stringField(metadata, 'tool_call_id') ?? `${sourceId}:call`;
  const name = stringField(metadata, 'function_name') ?? action;
  const response = objectField(metadata, 'model_response');
  const choice = (response === undefined ? undefined : arrayField(response, 'choices'))?.find(isJsonObject);
  const reply = choice === undefined ? undefined : objectField(choice, 'message');
  const replied = (reply === undefined ? [] : (arrayField(reply, 'tool_calls') ?? [])).filter(isJsonObject).find((call) => call.id === id);
  if (response !== undefined && reply !== undefined && replied !== undefined) {
    const input = toToolInput(objectField(replied, 'function')?.arguments);
    const responseId = stringField(response, 'id');
    return {
      block: toolCallBlock(id, name, input),
      text: stringField(reply, 'content') ?? '',
      ...(responseId === undefined ? {} : { responseId }),
    };
  }
  const args = eventArgs(raw);
  return { block: toolCallBlock(id, name, argsInput(action, args)), text: action === 'think' ? '' : (stringField(args, 'thought') ?? '') };
}

/** The action's arguments minus its thought (which is the reply text) and fields left empty. */
function argsInput(action: string, args: JsonObject): ToolInput {
  if (action === 'think') return { thought: args.thought };
  return Object.fromEntries(Object.entries(args).filter(([key, value]) => key !== 'thought' && value !== null && value !== ''));
}
