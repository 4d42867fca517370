import type { ProviderDescriptor } from "@svc/core";

/** Android Health Connect records uploaded by the user's app (NDJSON). */
export const provider = {
  slug: "health_connect",
  name: "Health Connect",
  kind: "device",
  dataTypes: ["activity", "heart", "recovery", "body", "sleep", "workouts", "vitals", "nutrition", "cycle", "mindfulness"],
} as const satisfies ProviderDescriptor;
