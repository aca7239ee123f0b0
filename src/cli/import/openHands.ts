/**
 * OpenHands evaluation output JSONL: one task per line (`{instance_id, instruction, history, …}`).
 * Each line becomes its own session; `instruction`, `metadata` and `test_result` repeat or describe
 * the run and are not conversation.
 */
import type { ImportSink } from './importSink';
import { arrayField, idField, isJsonObject } from './jsonShape';
import { importOpenHandsHistory } from './openHandsHistory';
import type { SourceRecord } from './parseTranscriptText';

/** Adds one session per line; a line that is no session is malformed. */
export function importOpenHands(records: readonly SourceRecord[], sink: ImportSink): void {
  records.forEach((source, index) => {
    const session = source.value;
    const history = isJsonObject(session) ? arrayField(session, 'history') : undefined;
    if (!isJsonObject(session) || history === undefined) {
      sink.countRecord();
      return sink.malformed('not an OpenHands session with a history list', source.line);
    }
    const sessionId = idField(session, 'instance_id') ?? `session-${index + 1}`;
    sink.beginSession(sessionId);
    importOpenHandsHistory(history, sessionId, sink, source.line);
  });
}
