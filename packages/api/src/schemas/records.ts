import { z } from "zod";
import { ZId } from "./common.ts";

export const ZView = z
  .enum(["merged", "all"])
  .default("merged")
  .describe("`merged` (default) leaves out a record when a better ranked source has a matching one; `all` returns every source's records.");

const timeBound = (which: string) =>
  z
    .string()
    .max(64)
    .describe(`${which} of the half-open window start <= time < end: an RFC 3339 time or a YYYY-MM-DD date (midnight UTC).`)
    .optional();

export const ZWindowStart = timeBound("Start");
export const ZWindowEnd = timeBound("End");

/** Path of every per-user read: `/v1/users/{id}/...`. */
export const ZUserPath = { id: ZId("user") };

/** Provenance every record of every read carries. */
export const ZProvenance = {
  provider: z.string().describe("The integration the record came through (e.g. `apple_health`, `oura`)."),
  source: z.string().nullable().describe("The vendor that produced it (e.g. `apple`, `garmin`), when known."),
  device: z.string().nullable().describe("The device that measured it, when known."),
  ingested_at: z.iso.datetime().describe("When svc stored (or last updated) the record."),
};

/** One worse ranked stream a merged record was preferred to. */
export const ZOutrankedStream = z.object({ provider: z.string(), source: z.string() });

export const ZOutranked = z
  .array(ZOutrankedStream)
  .describe(
    "Merged view only: the worse ranked streams (provider and source, the provider when the vendor is unknown) that had a matching record, left out in favour of this one.",
  )
  .optional();

export const readErrors = {
  400: "Invalid filter, window, limit or cursor",
  401: "Missing, wrong or expired secret",
  403: "Not a tenant API key or a user token with scope read",
  404: "No such user in the tenant (or not the token's user), or the user is being deleted",
} as const;
