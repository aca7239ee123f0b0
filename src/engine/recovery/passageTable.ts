/**
 * Where each passage of the recovery index stands, as columns of integers by passage id: its document and its
 * place in the document's indexed text. A long session's index holds tens of thousands of passages; as an object
 * each, in a map, they were some hundred bytes of heap apiece for five numbers.
 */
import { IntColumn } from './intColumn';

/** A passage as the index keeps it. */
export interface PassagePlace {
  /** The document it belongs to, as the index numbers its documents (never 0). */
  readonly document: number;
  /** Where the passage stands in the document's indexed text. */
  readonly from: number;
  readonly to: number;
  /** Line range inside the document, 1-based and inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  /** The passage's text, for documents the index cannot read back. */
  readonly text?: string;
}

export class PassageTable {
  private readonly documents = new IntColumn();
  private readonly froms = new IntColumn();
  private readonly tos = new IntColumn();
  private readonly startLines = new IntColumn();
  private readonly endLines = new IntColumn();
  private readonly texts = new Map<number, string>();
  private count = 0;

  /** Passages in the table. */
  get size(): number {
    return this.count;
  }

  add(id: number, place: PassagePlace): void {
    if (this.documents.get(id) === 0) this.count++;
    this.documents.set(id, place.document);
    this.froms.set(id, place.from);
    this.tos.set(id, place.to);
    this.startLines.set(id, place.startLine);
    this.endLines.set(id, place.endLine);
    if (place.text !== undefined) this.texts.set(id, place.text);
  }

  /** The document of passage `id`, or 0 when the table does not hold it. */
  documentOf(id: number): number {
    return this.documents.get(id);
  }

  get(id: number): PassagePlace | undefined {
    const document = this.documents.get(id);
    if (document === 0) return undefined;
    const text = this.texts.get(id);
    return {
      document,
      from: this.froms.get(id),
      to: this.tos.get(id),
      startLine: this.startLines.get(id),
      endLine: this.endLines.get(id),
      ...(text !== undefined ? { text } : {}),
    };
  }

  delete(id: number): void {
    if (this.documents.get(id) === 0) return;
    this.documents.set(id, 0);
    this.texts.delete(id);
    this.count--;
  }
}
