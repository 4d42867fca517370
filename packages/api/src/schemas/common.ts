import { z } from "zod";

export const ZId = (what: string) => z.uuid().describe(`The ${what}'s id (uuid).`);

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
