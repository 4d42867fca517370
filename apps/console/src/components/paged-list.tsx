import { Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { LoadMore } from "./load-more.tsx";
import { QueryState } from "./query-state.tsx";

/** Rows asked for per page of a paged list. */
export const PAGE_LIMIT = 50;

/** The paging option of a list procedure's infiniteQueryOptions: follow next_cursor until it is null. */
export const byCursor = { getNextPageParam: (page: { next_cursor: string | null }) => page.next_cursor };

/** A useInfiniteQuery of a list procedure (pages of { data }). */
export interface PagedQuery<T> {
  isPending: boolean;
  error: unknown;
  data: { pages: Array<{ data: T[] }> } | undefined;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/**
 * The rows of a paged list as one table: a loader or the problem while there are none, a note when
 * the list is empty, else the children's table with the "Load more" footer under it.
 */
export function PagedList<T>({ query, noun, empty, children }: { query: PagedQuery<T>; noun: string; empty: ReactNode; children: (rows: T[]) => ReactNode }) {
  return (
    <QueryState query={query}>
      {() => {
        const rows = query.data?.pages.flatMap((page) => page.data) ?? [];
        if (rows.length === 0) return <Text c="dimmed">{empty}</Text>;
        return (
          <Stack>
            {children(rows)}
            <LoadMore shown={rows.length} noun={noun} query={query} />
          </Stack>
        );
      }}
    </QueryState>
  );
}
