/**
 * Narrowing helpers for parsed JSON: transcripts come from other programs, so nothing is trusted
 * until a guard has looked at it.
 */

export type JsonObject = Readonly<Record<string, unknown>>;

/** A JSON object (not null, not a list). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The field when it is a string. */
export function stringField(source: JsonObject, key: string): string | undefined {
  const value = source[key];
  return typeof value === 'string' ? value : undefined;
}

/** The field when it is a JSON object. */
export function objectField(source: JsonObject, key: string): JsonObject | undefined {
  const value = source[key];
  return isJsonObject(value) ? value : undefined;
}

/** The field when it is a list. */
export function arrayField(source: JsonObject, key: string): readonly unknown[] | undefined {
  const value = source[key];
  return Array.isArray(value) ? value : undefined;
}

/** Ids in transcripts are strings or numbers (OpenHands event ids); either becomes a string. */
export function idField(source: JsonObject, key: string): string | undefined {
  const value = source[key];
  if (typeof value === 'string' && value !== '') return value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}
