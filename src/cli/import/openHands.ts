/**
 * OpenHands output JSONL: one task per line, from the evaluation harness (`{instance_id,
 * instruction, history, …}`) or the issue resolver (`{issue, instruction, history, git_patch, …}`);
 * or the trajectory its web app downloads for a conversation (`{trajectory: […]}`), the same events.
 * The software-agent-sdk (V1) writes the same lines with events typed by `kind` (`openHandsEvents.ts`).
 * Each line becomes its own session; `instruction`, `metadata` and `test_result` repeat or describe
 * the run and are not conversation.
 */
import type { ImportSink } from './importSink';
import { arrayField, idField, isJsonObject, objectField, stringField, type JsonObject } from './jsonShape';
import { importOpenHandsEvents, isOpenHandsV1Event } from './openHandsEvents';
import { importOpenHandsHistory } from './openHandsHistory';
import type { SourceRecord } from './parseTranscriptText';

/**
 * Adds one session per line; a line that is no session is malformed. A file of bare V1 events, one
 * a line or as one list (a conversation's event log without the harness's wrapper), is one session.
 */
export function importOpenHands(records: readonly SourceRecord[], sink: ImportSink, keepNativeCompaction = true): void {
  if (isBareEventLog(records)) {
    sink.beginSession('main');
    return importOpenHandsEvents(
      records.map((record) => record.value),
      { sessionId: 'main', keepNativeCompaction },
      sink,
    );
  }
  records.forEach((source, index) => {
    const session = source.value;
    const history = isJsonObject(session) ? openHandsHistoryOf(session) : undefined;
    if (!isJsonObject(session) || history === undefined) {
      sink.countRecord();
      return sink.malformed('not an OpenHands session with a history list', source.line);
    }
    const sessionId = idField(session, 'instance_id') ?? issueId(session) ?? `session-${index + 1}`;
    sink.beginSession(sessionId);
    const instruction = stringField(session, 'instruction');
    const context = {
      sessionId,
      keepNativeCompaction,
      ...(source.line === undefined ? {} : { line: source.line }),
      ...(instruction === undefined ? {} : { instruction }),
    };
    // The software-agent-sdk (V1) types its events by `kind`; the older runtime by `action`/`observation`.
    if (history.some(isOpenHandsV1Event)) return importOpenHandsEvents(history, context, sink);
    importOpenHandsHistory(history, context, sink);
  });
}

/**
 * A session's events: a harness's `history`, or the `trajectory` of a conversation the web app downloaded, whose events
 * say who wrote them (`source`), as a SWE-agent trajectory's steps do not.
 */
export function openHandsHistoryOf(session: JsonObject): readonly unknown[] | undefined {
  const history = arrayField(session, 'history');
  if (history !== undefined) return history;
  const trajectory = arrayField(session, 'trajectory');
  return trajectory?.some((event) => isJsonObject(event) && typeof event.source === 'string') ? trajectory : undefined;
}

/** True when no record is a session with a history and some are V1 events. */
export function isBareEventLog(records: readonly SourceRecord[]): boolean {
  const values = records.map((record) => record.value);
  return values.some(isOpenHandsV1Event) && !values.some((value) => isJsonObject(value) && Array.isArray(value.history));
}

/** `owner/repo#number` of a resolver run's issue. */
function issueId(session: JsonObject): string | undefined {
  const issue = objectField(session, 'issue');
  const number = issue === undefined ? undefined : idField(issue, 'number');
  if (issue === undefined || number === undefined) return undefined;
  const repo = [stringField(issue, 'owner'), stringField(issue, 'repo')].filter((part) => part !== undefined).join('/');
  return repo === '' ? `#${number}` : `${repo}#${number}`;
}
