import { z } from "zod";
import { ACTION_OF_REASON, CONNECTION_HEALTH_ACTIONS, CONNECTION_HEALTH_REASONS, REDIRECT_URI_MAX_LENGTH } from "@svc/core";
import { ZDateTime } from "../../schemas/common.ts";

/** Path of one provider of a user: `/v1/users/{id}/connections/{provider}`. */
export const ZProviderSlug = z.string().min(1).max(64).describe("The provider's slug, as GET /v1/providers lists it.");

export const ZRedirectUri = z
  .string()
  .min(1)
  .max(REDIRECT_URI_MAX_LENGTH)
  .describe(
    "Where the user's browser goes after consent, with `status=connected&provider=<slug>` or `status=error&provider=<slug>&error=<code>` added to its query. An absolute https URL (http only for localhost, 127.0.0.1 or [::1]), without credentials or fragment. Left out: the instance shows its own result page.",
  );

const reasonList = Object.entries(CONNECTION_HEALTH_REASONS)
  .map(([reason, meaning]) => `\`${reason}\` (action \`${ACTION_OF_REASON[reason as keyof typeof ACTION_OF_REASON]}\`): ${meaning}`)
  .join(" ");
const actionList = Object.entries(CONNECTION_HEALTH_ACTIONS)
  .map(([action, meaning]) => `\`${action}\`: ${meaning}`)
  .join(" ");

export const ZApiRetirementWarning = z
  .object({
    code: z
      .enum(["retiring_api", "retired_api"])
      .describe("retiring_api: the API is announced to be turned off on turned_off_on; retired_api: it was turned off, the connection no longer syncs."),
    message: z.string(),
    turned_off_on: z.string().describe("The day (YYYY-MM-DD, UTC) the provider turns the API off, as announced."),
    replacement: z.string().describe("The provider to connect the user to instead."),
  })
  .describe("A provider API that is retiring or retired.");

export const ZConnectionHealth = z
  .object({
    healthy: z.boolean().describe("True while the connection syncs."),
    reason: z
      .enum(Object.keys(CONNECTION_HEALTH_REASONS) as [keyof typeof CONNECTION_HEALTH_REASONS])
      .nullable()
      .describe(`Why it does not sync; null while healthy. ${reasonList}`),
    action: z
      .enum(Object.keys(CONNECTION_HEALTH_ACTIONS) as [keyof typeof CONNECTION_HEALTH_ACTIONS])
      .describe(`What it takes, and from whom. ${actionList}`),
    since: ZDateTime.nullable().describe("Since when it is unhealthy; null while healthy, and when not known (provider_off, provider_unavailable)."),
    retry_at: ZDateTime.nullable().describe("When svc tries again by itself (rate_limited, provider_quota, pulls_failing), when known."),
    warning: ZApiRetirementWarning.nullable().describe(
      "Set while the connection uses a provider API its owner is turning down (the Fitbit Web API); healthy, reason and action stay as they are. null otherwise.",
    ),
  })
  .describe("Whether the connection syncs, and if not why and what to do.");

export const ZConnection = z
  .object({
    provider: z.string().describe("The provider's slug."),
    status: z
      .enum(["active", "needs_reauth", "disconnected"])
      .describe("active (syncing, see health), needs_reauth (the provider refused the grant: the user must reconnect), disconnected (data kept unless erased)."),
    scopes: z.array(z.string()).describe("Scopes granted at the provider."),
    last_sync_at: ZDateTime.nullable().describe("When a pull last succeeded."),
    initial_backfill_at: ZDateTime.nullable().describe("When the initial backfill finished."),
    created_at: ZDateTime,
    updated_at: ZDateTime,
    connected_at: ZDateTime.describe("When the user last gave consent."),
    health: ZConnectionHealth,
  })
  .describe("A user's connection to one OAuth or push provider.");
