/**
 * `compute` remembered per key, up to `limit` keys (then all forgotten at once): for values
 * asked for by the million with few distinct keys (a unit, a device, a manufacturer). The
 * values are shared between callers: never change them.
 */
export function boundedMemo<V>(limit: number, compute: (key: string) => V): (key: string) => V {
  const known = new Map<string, V>();
  return (key) => {
    if (known.has(key)) return known.get(key) as V;
    const value = compute(key);
    if (known.size >= limit) known.clear();
    known.set(key, value);
    return value;
  };
}
