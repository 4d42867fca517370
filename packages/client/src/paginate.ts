/** A list answer of svc: `{data, next_cursor}`. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * Every item of a list, page after page: calls `fetchPage` with undefined, then with each
 * next_cursor until it is null. Works with either client:
 * `paginate((cursor) => trpc.users.listUsers.query({ cursor }))` or
 * `paginate((cursor) => unwrap(rest.GET("/v1/users", { params: { query: { cursor } } })))`.
 */
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined = undefined;
  do {
    const page: Page<T> = await fetchPage(cursor);
    yield* page.data;
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
}
