import { describe, expect, it } from "vitest";
import { retirementNotice } from "../src/pages/providers/retirement-notice.ts";

const FITBIT = {
  api: "Fitbit Web API",
  support_ends_on: "2026-09-30",
  turned_off_on: "2026-11-02",
  replacement: "google_health",
  source: "https://developers.google.com/health/about",
};

describe("retirementNotice: the provider page's warning", () => {
  it("nothing for a provider whose API does not retire", () => {
    expect(retirementNotice(null, new Date())).toBeNull();
  });

  it("names the dates and the provider to move users to, before and after the turn-off day", () => {
    const before = retirementNotice(FITBIT, new Date("2026-10-15T12:00:00Z"));
    expect(before?.title).toBe("The Fitbit Web API is announced to be turned off on 2026-11-02");
    expect(before?.text).toContain("Support ends on 2026-09-30");
    expect(before?.text).toContain("connect each user to google_health");
    const after = retirementNotice(FITBIT, new Date("2026-11-02T00:00:00Z"));
    expect(after?.title).toBe("The Fitbit Web API was turned off on 2026-11-02");
    expect(after?.text).toContain("no longer sync");
  });
});
