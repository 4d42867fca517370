import { findQuantityType } from "../catalog/quantity-types.ts";
import { listSampleTypeProviders } from "./sample-stream-repository.ts";
import type { DbClient } from "../../platform/index.ts";

/** One quantity type a user has samples of: times and provider slugs, never a value. */
export interface SampleTypeDto {
  type: string;
  /** The catalog's storage unit; null for a type outside the catalog. */
  unit: string | null;
  first_start: string;
  last_start: string;
  providers: string[];
}

/**
 * The quantity types the user has samples of, by name, with the start of the first and last
 * sample and the providers they came from (from the sample streams, not the samples). One page.
 */
export async function listSampleTypes(db: DbClient, userId: string): Promise<{ data: SampleTypeDto[]; next_cursor: null }> {
  const rows = await listSampleTypeProviders(db, userId);
  const data = rows.map((row) => ({
    type: row.type,
    unit: findQuantityType(row.type)?.unit ?? null,
    first_start: row.first_start.toISOString(),
    last_start: row.last_start.toISOString(),
    providers: row.providers,
  }));
  return { data, next_cursor: null };
}
