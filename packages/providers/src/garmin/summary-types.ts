// The Garmin summary types svc reads: the data type named in notified pulls, the list keys
// of ping and push bodies, the endpoint (summary and backfill), and the payload format.

import type { PayloadParser } from "@svc/core";
import { parseGarminActivities, parseGarminActivityDetails } from "./activities.ts";
import { parseGarminBodyComps } from "./body-comps.ts";
import { parseGarminDailies } from "./dailies.ts";
import { parseGarminEpochs } from "./epochs.ts";
import { parseGarminHrv, parseGarminPulseOx, parseGarminRespiration, parseGarminStressDetails } from "./readings.ts";
import { parseGarminSleeps } from "./sleeps.ts";
import { parseGarminUserMetrics } from "./user-metrics.ts";

export interface GarminSummaryType {
  /** The data type of notified pulls and sync runs. */
  name: string;
  /** The list keys Garmin uses for it in ping and push bodies. */
  notificationKeys: readonly string[];
  /** `{api}/{endpoint}` (by upload time) and `{api}/backfill/{endpoint}` (by summary time). */
  endpoint: string;
  format: string;
  parse: PayloadParser;
}

export const GARMIN_SUMMARY_TYPES: readonly GarminSummaryType[] = [
  { name: "dailies", notificationKeys: ["dailies"], endpoint: "dailies", format: "garmin-dailies", parse: parseGarminDailies },
  { name: "epochs", notificationKeys: ["epochs"], endpoint: "epochs", format: "garmin-epochs", parse: parseGarminEpochs },
  { name: "sleeps", notificationKeys: ["sleeps"], endpoint: "sleeps", format: "garmin-sleeps", parse: parseGarminSleeps },
  { name: "bodyComps", notificationKeys: ["bodyComps"], endpoint: "bodyComps", format: "garmin-body-comps", parse: parseGarminBodyComps },
  { name: "stressDetails", notificationKeys: ["stressDetails"], endpoint: "stressDetails", format: "garmin-stress-details", parse: parseGarminStressDetails },
  { name: "userMetrics", notificationKeys: ["userMetrics"], endpoint: "userMetrics", format: "garmin-user-metrics", parse: parseGarminUserMetrics },
  { name: "pulseox", notificationKeys: ["pulseox", "pulseOx"], endpoint: "pulseOx", format: "garmin-pulse-ox", parse: parseGarminPulseOx },
  { name: "respiration", notificationKeys: ["allDayRespiration", "respiration"], endpoint: "respiration", format: "garmin-respiration", parse: parseGarminRespiration },
  { name: "hrv", notificationKeys: ["hrv"], endpoint: "hrv", format: "garmin-hrv", parse: parseGarminHrv },
  { name: "activities", notificationKeys: ["activities"], endpoint: "activities", format: "garmin-activities", parse: parseGarminActivities },
  { name: "activityDetails", notificationKeys: ["activityDetails"], endpoint: "activityDetails", format: "garmin-activity-details", parse: parseGarminActivityDetails },
];

export function summaryTypeNamed(name: string): GarminSummaryType | undefined {
  return GARMIN_SUMMARY_TYPES.find((type) => type.name === name);
}

export function summaryTypeOfNotificationKey(key: string): GarminSummaryType | undefined {
  return GARMIN_SUMMARY_TYPES.find((type) => type.notificationKeys.includes(key));
}
