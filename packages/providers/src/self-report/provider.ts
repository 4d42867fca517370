import type { ProviderDescriptor } from "@svc/core";

/** What a person reports about themselves through POST /v1/users/{id}/self-reports. */
export const provider = {
  slug: "self_report",
  name: "Self reports",
  kind: "device",
  dataTypes: ["reported"],
} as const satisfies ProviderDescriptor;
