/*
 * The size budget of one tool answer. An answer holds at most `limit` records and at most
 * about RESULT_TOKEN_BUDGET tokens: the JSON text (the same JSON as structuredContent) is cut
 * to RESULT_BUDGET_BYTES. Tokens are estimated as UTF-8 bytes / BYTES_PER_TOKEN: JSON of
 * timestamps and numbers tokenizes far denser than prose (bytes / 4). Measured with the o200k
 * tokenizer on the bench's answers, compact sample pages take 2.3 bytes a token and other
 * answers 2.6 to 3.2, so bytes / 2.5 keeps the densest answers near the budget
 * (docs/decisions.md, "Size budget of MCP answers").
 */

export const RESULT_TOKEN_BUDGET = 20_000;
export const BYTES_PER_TOKEN = 2.5;
export const RESULT_BUDGET_BYTES = RESULT_TOKEN_BUDGET * BYTES_PER_TOKEN;

export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/**
 * How many of the first records fit the budget beside the rest of the answer (at least one, so
 * a reader always moves on). `rest` is the answer with no records.
 */
export function recordsThatFit(rest: Record<string, unknown>, records: readonly unknown[]): number {
  let bytes = jsonBytes({ ...rest, records: [] });
  for (let count = 0; count < records.length; count++) {
    bytes += jsonBytes(records[count]) + (count > 0 ? 1 : 0);
    if (bytes > RESULT_BUDGET_BYTES) return Math.max(1, count);
  }
  return records.length;
}
