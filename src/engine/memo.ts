/**
 * Remembers a pure function's answer per object. Messages and blocks are immutable, so what is
 * derived from one block (the gist of a command's output, an error's summary) never changes; the
 * memo lets a range summarized again (aging re-summarizes from the originals) cost a lookup per
 * block instead of a scan of its text. Keyed weakly: it holds nothing the conversation does not.
 */
export function memoizeByObject<K extends object, V>(derive: (key: K) => V): (key: K) => V {
  const known = new WeakMap<K, { readonly value: V }>();
  return (key) => {
    const hit = known.get(key);
    if (hit) return hit.value;
    const value = derive(key);
    known.set(key, { value });
    return value;
  };
}
