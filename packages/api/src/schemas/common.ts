import { z } from "zod";

export const ZId = (what: string) => z.uuid().describe(`The ${what}'s id (uuid).`);

/**
 * An integer id in a path. It coerces itself: trpc-to-openapi coerces a schema's strings only
 * for requests without a body (patches/), so a POST would otherwise take "12" for a string.
 */
export const ZIntegerPathId = (what: string) =>
  z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).describe(`The ${what}'s id (an integer).`);

export const ZDateTime = z.iso.datetime();

export const ZLimit = z
  .number()
  .int()
  .min(1)
  .max(1000)
  .default(100)
  .describe("Page size, 1 to 1000 (default 100).");

export const ZCursor = z
  .string()
  .min(1)
  .max(2048)
  .describe("Pass back next_cursor from the previous page; omit for the first page.")
  .optional();

/** A list answer: `{data, next_cursor}`. */
export const ZPage = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    next_cursor: z.string().nullable().describe("Cursor of the next page; null on the last page."),
  });
