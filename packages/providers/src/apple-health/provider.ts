import type { ProviderDescriptor } from "@svc/core";

/** HealthKit data uploaded by the user's iPhone app (NDJSON, export.xml or export.zip). */
export const provider = {
  slug: "apple_health",
  name: "Apple Health",
  kind: "device",
  dataTypes: ["activity", "heart", "recovery", "body", "sleep", "workouts", "vitals", "nutrition", "cycle", "mindfulness"],
} as const satisfies ProviderDescriptor;
