import { describe, expect, it } from "vitest";
import { apiRetirementWarning, type ApiRetirement } from "../src/connections/index.ts";

const RETIREMENT: ApiRetirement = {
  api: "Fitbit Web API",
  supportEndsOn: "2026-09-30",
  turnedOffOn: "2026-11-02",
  replacement: "google_health",
  source: "https://developers.google.com/health/about",
};

describe("apiRetirementWarning", () => {
  it("none for a provider whose API does not retire", () => {
    expect(apiRetirementWarning(undefined, new Date())).toBeNull();
  });

  it("retiring_api before the turn-off day, retired_api from its first instant (UTC)", () => {
    const before = apiRetirementWarning(RETIREMENT, new Date("2026-11-01T23:59:59Z"));
    expect(before).toMatchObject({ code: "retiring_api", turned_off_on: "2026-11-02", replacement: "google_health" });
    expect(before?.message).toContain("announced to be turned off on 2026-11-02");
    const on = apiRetirementWarning(RETIREMENT, new Date("2026-11-02T00:00:00Z"));
    expect(on).toMatchObject({ code: "retired_api", turned_off_on: "2026-11-02", replacement: "google_health" });
    expect(on?.message).toContain("was turned off on 2026-11-02");
  });
});
