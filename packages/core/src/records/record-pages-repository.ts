import { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";

/**
 * The statement of one page of a record table (sleep sessions, workouts, ...), to run alone or
 * beside others in one statement (readRecordPages), its rows then sent as JSON: `times` are the
 * columns JSON gives as text, `order` the columns of the page's order.
 */
export interface RecordPage<Row> extends RecordPageSql {
  times: ReadonlyArray<keyof Row & string>;
  order: ReadonlyArray<keyof Row & string>;
}

/** A RecordPage of rows of any shape. */
export interface RecordPageSql {
  sql: Prisma.Sql;
  times: readonly string[];
  order: readonly string[];
}

/** Pages by name; a page of none is null (read as no rows). */
export type RecordPages = Record<string, RecordPageSql | null>;

/** The rows of each page of `T`. */
export type RecordPageRows<T extends RecordPages> = { [K in keyof T]: T[K] extends RecordPage<infer Row> ? Row[] : object[] };

/** `json_build_object` of each page's rows as a JSON array in the page's order (null: no pages). */
export function recordPagesJson(pages: RecordPages): Prisma.Sql {
  const parts = Object.entries(pages).flatMap(([name, page]) => {
    if (!page) return [];
    const order = Prisma.raw(page.order.map((column) => `x.${column}`).join(", "));
    return [Prisma.sql`${name}::text, (SELECT coalesce(json_agg(x ORDER BY ${order}), '[]'::json) FROM (${page.sql}) x)`];
  });
  return parts.length > 0 ? Prisma.sql`json_build_object(${Prisma.join(parts, ", ")})` : Prisma.sql`'{}'::json`;
}

/** The rows of each page from recordPagesJson's value, their times as Dates again. */
export function recordPageRows<T extends RecordPages>(pages: T, json: Record<string, Array<Record<string, unknown>>>): RecordPageRows<T> {
  const rows: Record<string, unknown[]> = {};
  for (const [name, page] of Object.entries(pages)) {
    const of = json[name] ?? [];
    for (const row of of) {
      for (const column of page?.times ?? []) {
        const value = row[column];
        if (typeof value === "string") row[column] = new Date(value);
      }
    }
    rows[name] = of;
  }
  return rows as RecordPageRows<T>;
}

/** Several pages of record tables in one statement. */
export async function readRecordPages<T extends RecordPages>(db: DbClient, pages: T): Promise<RecordPageRows<T>> {
  if (Object.values(pages).every((page) => page === null)) return recordPageRows(pages, {});
  const [row] = await db.$queryRaw<Array<{ pages: Record<string, Array<Record<string, unknown>>> }>>`SELECT ${recordPagesJson(pages)} AS pages`;
  return recordPageRows(pages, row!.pages);
}
