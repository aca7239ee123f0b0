/** Numbers as people read them in ctx's messages: rounded, with thousands separators ("12,345"). */
export function formatCount(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

/** A count with its noun, one or many: "1 checkpoint", "2 checkpoints", "1,204 messages". */
export function counted(x: number, one: string, many = `${one}s`): string {
  return `${formatCount(x)} ${Math.round(x) === 1 ? one : many}`;
}
