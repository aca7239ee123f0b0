/**
 * Input keys that agents' tools use for the file a call reads or writes, and for what a write puts in it. Tier 2
 * (which checks the file on disk), the ledger's tool record (which lists the files a session touched) and recall
 * (which reads what a written file defines) all read them, so they live below all three.
 */

/** Keys tools use for the file a read, write or edit targets. */
export const PATH_KEYS = ['file_path', 'filePath', 'path', 'filename', 'file', 'target_file', 'targetFile', 'absolutePath'];

/** Keys tools use for the whole content a write puts in its file. */
export const CONTENT_KEYS = ['content', 'contents', 'file_text', 'fileText', 'code', 'text'];

/** The first of `keys` that `input` holds as a string, with its value. */
export function stringInput(input: Readonly<Record<string, unknown>>, keys: readonly string[]): { key: string; value: string } | undefined {
  for (const key of keys) {
    const value = input[key];
    if (typeof value === 'string') return { key, value };
  }
  return undefined;
}
