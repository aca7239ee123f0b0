/**
 * Who wrote a user turn the ctx models receive, decided without VS Code types so plain node can
 * test it. The host's framing decides (see `userTextBlocks`): Copilot's last `<userRequest>` must
 * end the turn. A stand-in ctx writes for an image after it (a data part the caller sent after
 * its text) is not text of the turn, so it does not move the turn's end; it follows as its own
 * injected block.
 */
import { injectedTextBlock, textBlock, type TextBlock, userTextBlocks } from '../../engine/host/messages';

/** One piece of a turn's run of text, in order: a text part's value, or the stand-in for a data part. */
export interface TurnPiece {
  readonly text: string;
  /** Set for ctx's own stand-in for a data part (`[image/png, 12 bytes]`). */
  readonly standIn?: boolean;
}

/**
 * A run of a turn's text as blocks. In a user's turn, only the host's framing of the user's words
 * is theirs; in any other role the run is one block of the role's own text.
 */
export function turnTextBlocks(pieces: readonly TurnPiece[], fromUser: boolean): TextBlock[] {
  const text = pieces.map((p) => p.text).join('');
  if (pieces.length === 0) return [];
  if (!fromUser || text === '') return [textBlock(text)];
  let cut = pieces.length;
  while (cut > 0 && (pieces[cut - 1].standIn === true || pieces[cut - 1].text.trim() === '')) cut--;
  const tail = pieces.slice(cut);
  if (!tail.some((p) => p.standIn === true)) return userTextBlocks(text);
  const head = pieces
    .slice(0, cut)
    .map((p) => p.text)
    .join('');
  return [...(head === '' ? [] : userTextBlocks(head)), injectedTextBlock(tail.map((p) => p.text).join(''))];
}
