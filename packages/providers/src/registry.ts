import { providerCatalogOf } from "@svc/core";
import { provider as activityFiles } from "./activity-files/provider.ts";
import { provider as appleHealth } from "./apple-health/provider.ts";
import { provider as bluetooth } from "./bluetooth/provider.ts";
import { provider as demo } from "./demo/connector.ts";
import { provider as dexcom } from "./dexcom/connector.ts";
import { provider as fitbit } from "./fitbit/connector.ts";
import { provider as googleHealth } from "./google_health/connector.ts";
import { provider as healthConnect } from "./health-connect/provider.ts";
import { provider as oura } from "./oura/connector.ts";
import { provider as selfReport } from "./self-report/provider.ts";
import { provider as xiaomi } from "./xiaomi/provider.ts";
import { provider as whoop } from "./whoop/connector.ts";
import { provider as withings } from "./withings/connector.ts";
import { provider as polar } from "./polar/connector.ts";
import { provider as strava } from "./strava/connector.ts";
import { provider as garmin } from "./garmin/connector.ts";
import { provider as wahoo } from "./wahoo/connector.ts";
import { provider as suunto } from "./suunto/connector.ts";
import { provider as huaweiHealth } from "./huawei_health/connector.ts";
import { provider as ultrahuman } from "./ultrahuman/connector.ts";

/**
 * Every provider of this build, in the order GET /v1/providers lists them. A provider is
 * one folder with a `provider.ts` descriptor; add it here.
 */
export const PROVIDER_REGISTRY = providerCatalogOf([appleHealth, healthConnect, xiaomi, activityFiles, bluetooth, selfReport, oura, demo, dexcom, fitbit, googleHealth, whoop, withings, polar, strava, garmin, wahoo, suunto, ultrahuman, huaweiHealth]);
