/** The words of a name (a tool's, a setting's, a variable's), and what a tool's name alone says of its result. */

/** The words of a name: split at `_`, `-`, `.`, spaces and lower-to-upper case changes, lower-cased (`MultiEdit` → multi, edit). */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

/** Words of a tool's name that make it a delegation to another agent (`Task`, `delegate_to_agent`, `runSubagent`). */
const DELEGATE_WORDS = new Set(['agent', 'subagent', 'delegate', 'task']);

/** True when a tool of this name hands work to another agent, whose result is that agent's report. */
export function delegatesWork(toolName: string): boolean {
  return nameWords(toolName).some((w) => DELEGATE_WORDS.has(w));
}
