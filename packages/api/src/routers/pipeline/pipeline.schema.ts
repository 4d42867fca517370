import { z } from "zod";
import { ZDateTime } from "../../schemas/common.ts";

const count = (what: string) => z.number().int().min(0).describe(what);

export const ZPipeline = z
  .object({
    generated_at: ZDateTime.describe("When the counts were taken."),
    users: z.object({ active: count("Active users."), deleting: count("Users being deleted.") }),
    sources: z
      .array(
        z.object({
          slug: z.string(),
          name: z.string().describe("Display name."),
          kinds: z.array(z.enum(["oauth", "push", "device"])),
          enabled: z.boolean().describe("Whether the tenant can use the source now (as GET /v1/providers lists it)."),
          connections: z
            .object({ active: count("Active."), needs_reauth: count("Waiting for the user to reconnect."), disconnected: count("Disconnected, data kept.") })
            .describe("The tenant's connections of the source by status."),
          broken: count("Connections (not disconnected) that stopped syncing: see their health."),
          paused_until: ZDateTime.nullable().describe("Until when the provider asked to wait (its quota of an application the tenant uses); null when not paused."),
        }),
      )
      .describe("Every source of this build, in the registry's order."),
    sync: z
      .object({
        queued: count("Sync runs waiting to start."),
        running: count("Sync runs pulling now."),
        retrying: count("Sync runs waiting for their next attempt after an error."),
        rate_limited: count("Sync runs waiting for the provider's quota."),
        failed_24h: count("Sync runs that ended failed in the last 24 hours."),
        succeeded_24h: count("Sync runs that ended succeeded in the last 24 hours."),
      })
      .describe("The tenant's pulls."),
    processing: z
      .object({
        pending: count("Stored raw payloads waiting for (or in) normalization."),
        running: count("Uploads still receiving their bytes."),
        parked: count("Raw payloads normalization gave up on; kept for re-processing."),
        rejected_records: count("Records normalization could not store, all stored time."),
      })
      .describe("Normalization of stored raw payloads into records."),
    storage: z
      .object({ raw_objects_24h: count("Raw payloads stored in the last 24 hours."), raw_bytes_24h: count("Their bytes.") })
      .describe("Raw payloads stored."),
    delivery: z
      .object({
        endpoints: count("Webhook endpoints."),
        endpoints_failing: count("Active endpoints whose last attempts failed (failing_since set)."),
        endpoints_disabled: count("Disabled endpoints."),
        pending: count("Deliveries not yet done: waiting for an attempt or being sent."),
        parked: count("Deliveries that ran out of attempts."),
      })
      .describe("Outgoing webhooks."),
  })
  .describe("Where the tenant's data stands, from sources to webhook deliveries. Counts only, never a health value.");
