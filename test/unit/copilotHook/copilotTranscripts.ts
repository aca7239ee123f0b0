/** Transcripts in the shape Copilot Chat 0.67 writes them (`SessionTranscriptService`), built for tests. */

let next = 0;

/** One transcript line: `{type, data, id, timestamp, parentId}`. */
export function entry(type: string, data: Record<string, unknown>, at = '2026-11-20T10:00:00.000Z'): string {
  next++;
  return JSON.stringify({ type, data, id: `e-${next}`, timestamp: at, parentId: next > 1 ? `e-${next - 1}` : null });
}

/** A turn: the user's request, then rounds of the agent's text and one tool call each, their completions after. */
export function turn(request: string, rounds: readonly { text: string; tool?: string; args?: object; callId?: string }[]): string[] {
  const lines = [entry('user.message', { content: request, attachments: [] })];
  rounds.forEach((round, i) => {
    lines.push(entry('assistant.turn_start', { turnId: `0.${i}` }));
    const requests = round.tool
      ? [{ toolCallId: round.callId ?? `call-${i}`, name: round.tool, arguments: JSON.stringify(round.args ?? {}), type: 'function' }]
      : [];
    lines.push(entry('assistant.message', { messageId: `m-${i}`, content: round.text, toolRequests: requests }));
    if (round.tool) {
      lines.push(
        entry('tool.execution_start', { toolCallId: round.callId ?? `call-${i}`, toolName: round.tool, arguments: round.args ?? {} }),
      );
      lines.push(entry('tool.execution_complete', { toolCallId: round.callId ?? `call-${i}`, success: true }));
    }
    lines.push(entry('assistant.turn_end', { turnId: `0.${i}` }));
  });
  return lines;
}

/** A whole transcript: the session's start line, then `lines`, each ended by a newline. */
export function transcript(sessionId: string, ...lines: string[]): string {
  const start = entry('session.start', { sessionId, version: 1, producer: 'copilot-agent', startTime: '2026-11-20T10:00:00.000Z' });
  return [start, ...lines].map((l) => `${l}\n`).join('');
}
