export type Json = Record<string, unknown>;

/** A REST list page: `{data, next_cursor}`. */
export interface RestPage {
  data: Json[];
  next_cursor: string | null;
}

/** Reads one page of a REST list procedure with these arguments (the user's id added). */
export type ReadPage = (args: Json) => Promise<RestPage>;

/** The arguments without the named ones. */
export function without(args: Json, names: readonly string[]): Json {
  return Object.fromEntries(Object.entries(args).filter(([name]) => !names.includes(name)));
}
