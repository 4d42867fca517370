import { providerCatalogOf } from "@svc/core";
import { provider as activityFiles } from "./activity-files/provider.ts";
import { provider as appleHealth } from "./apple-health/provider.ts";
import { provider as bluetooth } from "./bluetooth/provider.ts";
import { provider as healthConnect } from "./health-connect/provider.ts";
import { provider as selfReport } from "./self-report/provider.ts";
import { provider as xiaomi } from "./xiaomi/provider.ts";

/**
 * Every provider of this build, in the order GET /v1/providers lists them. A provider is
 * one folder with a `provider.ts` descriptor; add it here.
 */
export const PROVIDER_REGISTRY = providerCatalogOf([appleHealth, healthConnect, xiaomi, activityFiles, bluetooth, selfReport]);
