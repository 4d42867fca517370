import type { ReaderPrincipal } from "@svc/core";
import type { ToolDefinition } from "../tool-definition.ts";
import { getCoverage } from "./get-coverage.ts";
import { getEcgRecordings } from "./get-ecg-recordings.ts";
import { getSampleStats } from "./get-sample-stats.ts";
import { getSleep } from "./get-sleep.ts";
import { getTags } from "./get-tags.ts";
import { listConnections } from "./list-connections.ts";
import { listQuantityTypes } from "./list-quantity-types.ts";
import { listUsers } from "./list-users.ts";
import { listWebhooks } from "./list-webhooks.ts";
import {
  getCategorySamples,
  getDaily,
  getHrv,
  getMenstrualCycles,
  getNutrition,
  getRrIntervals,
  getSamples,
  getWorkoutRoute,
  getWorkouts,
} from "./record-tools.ts";

/** Every tool of /mcp, in the order the spec lists them. All read only. */
export const MCP_TOOLS: readonly ToolDefinition[] = [
  listUsers,
  listQuantityTypes,
  getSamples,
  getCategorySamples,
  getSleep,
  getWorkouts,
  getWorkoutRoute,
  getNutrition,
  getDaily,
  getRrIntervals,
  getHrv,
  getMenstrualCycles,
  getEcgRecordings,
  getSampleStats,
  getCoverage,
  getTags,
  listConnections,
  listWebhooks,
];

/** The tools a caller is offered: a user token does not see the tenant-only ones. */
export function toolsFor(principal: ReaderPrincipal): readonly ToolDefinition[] {
  return principal.kind === "tenant" ? MCP_TOOLS : MCP_TOOLS.filter((tool) => !tool.tenantOnly);
}
