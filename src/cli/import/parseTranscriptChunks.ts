/**
 * Reads a transcript as it streams in, chunk after chunk, instead of from its whole text: JSON Lines
 * are parsed one line at a time, so the whole text and the list of its lines are never held beside
 * the parsed records. The result is the one `parseTranscriptText` gives for the same text.
 */
import { parseTranscriptText, TranscriptLines, type ParsedTranscript } from './parseTranscriptText';

/**
 * Parses the transcript whose text arrives in `chunks`. A text that may be one JSON document (its
 * first line that is not blank is not JSON on its own, or it has a single such line) is read
 * whole with `readWhole` and parsed as `parseTranscriptText` does. Otherwise it cannot be one
 * document: a first line that is a whole JSON value followed by more than whitespace never parses
 * as one, so the lines are all there is, unless most of them are not JSON objects: then the text is
 * plain text, read whole again.
 */
export async function parseTranscriptChunks(chunks: AsyncIterable<string>, readWhole: () => Promise<string>): Promise<ParsedTranscript> {
  let lines: TranscriptLines | undefined = new TranscriptLines();
  let pending = '';
  let first = true;
  let nonBlank = 0;
  let mayBeDocument = false;
  const take = (raw: string) => {
    // split(/\r?\n/) takes a carriage return before the line feed with it.
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() !== '' && nonBlank++ === 0) mayBeDocument = !isJson(line);
    lines?.add(line);
  };
  for await (const chunk of chunks) {
    let text = first && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk;
    if (first && text.length > 0) first = false;
    text = pending + text;
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      take(text.slice(start, end));
      start = end + 1;
      if (mayBeDocument) break;
    }
    if (mayBeDocument) break;
    pending = text.slice(start);
  }
  if (!mayBeDocument) take(pending);
  if (mayBeDocument || nonBlank <= 1 || lines.readsAsText()) {
    lines = undefined;
    return parseTranscriptText(await readWhole());
  }
  return lines.finish();
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
