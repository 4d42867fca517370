import type { ProviderDescriptor } from "@svc/core";

/** Standard Bluetooth health device readings (GATT) relayed by the user's app. */
export const provider = {
  slug: "bluetooth",
  name: "Bluetooth devices",
  kind: "device",
  dataTypes: ["heart", "body", "vitals"],
} as const satisfies ProviderDescriptor;
