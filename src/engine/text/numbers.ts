/** Numbers as people read them in ctx's messages: rounded, with thousands separators ("12,345"). */
export function formatCount(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}
