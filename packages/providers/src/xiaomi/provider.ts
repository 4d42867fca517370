import type { ProviderDescriptor } from "@svc/core";

/** Zepp Life and Mi Fitness data exports (CSV) uploaded by the user. */
export const provider = {
  slug: "xiaomi",
  name: "Xiaomi",
  kind: "device",
  dataTypes: ["activity", "heart", "body", "sleep", "workouts", "vitals"],
} as const satisfies ProviderDescriptor;
