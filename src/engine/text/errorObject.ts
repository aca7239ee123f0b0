/**
 * An error object a tool wrote out as JSON inside its message (`Error reading file a.md: {"name":"Error","message":"File
 * not found: C:\\dev\\a.md","stack":"Error: File not found: …\n    at …"}`): what it says is its message, in the
 * characters it stands for, not the escaped object with the stack of the tool's own code after it.
 */

/** A serialized error: its class's name, then its message as a JSON string, closed or cut off at the line's end. */
const ERROR_OBJECT = /\{\s*"name"\s*:\s*"((?:[\w$]+\.)*[\w$]*(?:Error|Exception))"\s*,\s*"message"\s*:\s*"((?:[^"\\]|\\.)*)(?:"|\\?$)/;

/**
 * `line` with a serialized error object read as its message (`Error reading file a.md: File not found: C:\dev\a.md`); a
 * class other than the plain `Error` keeps its name (`TypeError: x is undefined`). Any other line as it is.
 */
export function withErrorObjectRead(line: string): string {
  if (!line.includes('"message"')) return line;
  const found = ERROR_OBJECT.exec(line);
  if (found === null) return line;
  const message = decoded(found[2]).split('\n', 1)[0].trim();
  if (message.length === 0) return line;
  const said = found[1] === 'Error' ? message : `${found[1]}: ${message}`;
  const before = line.slice(0, found.index).trimEnd();
  return before.length === 0 ? said : `${before} ${said}`;
}

/** A JSON string's characters; one cut inside an escape reads its backslashes as written. */
function decoded(escaped: string): string {
  try {
    return JSON.parse(`"${escaped}"`) as string;
  } catch {
    return escaped.replace(/\\\\/g, '\\');
  }
}
