import { describe, expect, it } from "vitest";
import { availabilityOf, REASON_TEXT, type TenantProviderSwitch } from "../src/components/provider-availability.ts";

const oauth = (change: Partial<TenantProviderSwitch>): TenantProviderSwitch => ({
  kinds: ["oauth"],
  instance_status: "active",
  enabled: true,
  own_keys: false,
  available: true,
  ...change,
});

describe("availabilityOf: one vocabulary for a provider's availability to a tenant", () => {
  it("names why a provider is available", () => {
    expect(availabilityOf(oauth({}))).toEqual({ available: true, reason: "instance_keys" });
    expect(availabilityOf(oauth({ own_keys: true }))).toEqual({ available: true, reason: "own_keys" });
    expect(availabilityOf(oauth({ instance_status: "built_in" }))).toEqual({ available: true, reason: "built_in" });
    expect(availabilityOf(oauth({ kinds: ["device"] }))).toEqual({ available: true, reason: "device" });
  });

  it("names why it is not, the tenant switch first, then the tenant's own keys, then the instance", () => {
    expect(availabilityOf(oauth({ enabled: false, available: false }))).toEqual({ available: false, reason: "off_for_tenant" });
    expect(availabilityOf(oauth({ kinds: ["device"], enabled: false, available: false }))).toEqual({ available: false, reason: "off_for_tenant" });
    // Own keys replace the instance's: their error decides, whatever the instance's status.
    expect(availabilityOf(oauth({ own_keys: true, available: false, instance_status: "not_configured" }))).toEqual({ available: false, reason: "tenant_keys_error" });
    expect(availabilityOf(oauth({ instance_status: "off", available: false }))).toEqual({ available: false, reason: "instance_off" });
    expect(availabilityOf(oauth({ instance_status: "not_configured", available: false }))).toEqual({ available: false, reason: "instance_not_configured" });
    expect(availabilityOf(oauth({ instance_status: "error", available: false }))).toEqual({ available: false, reason: "instance_keys_error" });
    // Own keys that work keep a provider the instance switched off.
    expect(availabilityOf(oauth({ own_keys: true, instance_status: "off" }))).toEqual({ available: true, reason: "own_keys" });
  });

  it("has words for every reason", () => {
    for (const text of Object.values(REASON_TEXT)) expect(text.length).toBeGreaterThan(5);
  });
});
