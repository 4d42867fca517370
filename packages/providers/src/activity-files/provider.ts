import type { ProviderDescriptor } from "@svc/core";

/** FIT, GPX and TCX activity files uploaded by the user. */
export const provider = {
  slug: "activity_files",
  name: "Activity files",
  kind: "device",
  dataTypes: ["workouts", "activity", "heart"],
} as const satisfies ProviderDescriptor;
