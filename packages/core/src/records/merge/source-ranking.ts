import { builtinOrderOf } from "./builtin-orders.ts";

/** The user's orders of sources by scope: a metric name, a group name, or `*`. */
export type UserSourceOrders = ReadonlyMap<string, readonly string[]>;

/**
 * The order of sources for one metric: the user's order for the metric, then for its
 * group, then for `*`, then the built-in order of the group. Concatenating the levels
 * (keeping each source's first place) ranks exactly as comparing sources level by level:
 * a source listed at a more specific level wins, and a source missing from an order ranks
 * after every listed one and is then placed by the next level.
 */
export function resolveSourceOrder(metric: string, group: string, userOrders: UserSourceOrders): string[] {
  const levels = [userOrders.get(metric), userOrders.get(group), userOrders.get("*"), builtinOrderOf(group)];
  const order: string[] = [];
  for (const level of levels) {
    for (const source of level ?? []) if (!order.includes(source)) order.push(source);
  }
  return order;
}

/** One stream of records the merged view ranks: the vendor (or provider), the provider, on body. */
export interface RankedStream {
  sourceKey: string;
  provider: string;
  onBody: boolean;
}

/**
 * Sorts streams best first: by the source's place in the order (unlisted last), then a
 * stream worn on the body before others, then by provider name, then by source name so
 * that two unlisted sources never tie (the spec leaves that tie open; a stable order keeps
 * the merged view free of duplicates).
 */
export function compareStreams(order: readonly string[]) {
  const place = (source: string) => {
    const index = order.indexOf(source);
    return index === -1 ? order.length : index;
  };
  return (a: RankedStream, b: RankedStream): number =>
    place(a.sourceKey) - place(b.sourceKey) ||
    Number(b.onBody) - Number(a.onBody) ||
    compareText(a.provider, b.provider) ||
    compareText(a.sourceKey, b.sourceKey);
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Streams with their rank: 0 is the best. */
export function rankStreams<T extends RankedStream>(streams: readonly T[], order: readonly string[]): Array<T & { rank: number }> {
  return [...streams].sort(compareStreams(order)).map((stream, rank) => ({ ...stream, rank }));
}
