/** How an error reads in a message to a person: its own message, or the thrown value as text. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
