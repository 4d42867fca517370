// What a tenant's support engineer does in the console, in a real browser at desktop and
// phone sizes: find a user by external_ref (prefix or exact) or id, read who it is (external
// ref, status, created) with its shares and consents, see each provider's availability in
// one vocabulary on the providers tab and the pipeline, and filter the audit logs.
import { createAdminKey, type CreatedTenant } from "@svc/core";
import { browserAvailable, saveScreenshot } from "@svc/testing";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSamples } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { openConsoleBrowser, VIEWPORTS, type ConsoleBrowser } from "./console-browser.ts";

/** Lets a drawer's or dialog's opening transition end, so axe sees its final colours. */
const settle = (page: Page) => page.waitForTimeout(300);

/** The text of a row's cell under the column headed `header` (a row header counts as a column). */
async function cellUnder(table: Locator, row: Locator, header: string): Promise<string> {
  const headers = (await table.getByRole("columnheader").allTextContents()).map((text) => text.trim());
  const index = headers.indexOf(header);
  expect(index, `column ${header} in ${headers.join(", ")}`).toBeGreaterThanOrEqual(0);
  return ((await row.locator("th, td").nth(index).textContent()) ?? "").trim();
}

describe.runIf(browserAvailable())("console: finding and supporting a user", () => {
  let service: TestService;
  let admin: { key: string; id: string };
  let tenant: CreatedTenant;
  const users: Record<string, string> = {};

  beforeAll(async () => {
    service = await startTestService({ SVC_ROLE: "api" });
    const created = await createAdminKey(service.db, "console support test");
    admin = { key: created.admin_key, id: created.id };
    tenant = await service.createTenant("acme");
    for (const ref of ["crm-4711", "crm-4712", "crm-5000"]) {
      const answer = await service.call("/v1/users", { key: tenant.api_key, body: { external_ref: ref } });
      expect(answer.status, answer.text).toBe(201);
      users[ref] = answer.body.id as string;
    }
    const userId = users["crm-4711"]!;
    const share = (label: string, revokedAt: Date | null) =>
      service.db.share.create({
        data: {
          tenantId: tenant.tenant_id,
          userId,
          label,
          categories: ["heart", "sleep"],
          providers: ["garmin"],
          windowStart: new Date("2026-01-01T00:00:00Z"),
          windowEnd: new Date("2026-02-01T00:00:00Z"),
          expiresAt: new Date(Date.now() + 30 * 86_400_000),
          file: revokedAt ? null : Buffer.from("sealed"),
          revokedAt,
          revokedReason: revokedAt ? "owner" : null,
        },
        select: { id: true },
      });
    await share("doctor", null);
    await share("coach", new Date());
    await writeSamples(service, userId, "garmin", [{ type: "heart_rate", value: 61, start_date: new Date("2026-01-02T00:00:00Z"), source: "garmin" }]);
    const revoked = await service.call(`/v1/users/${userId}/consents/oura/revoke`, { key: tenant.api_key, body: { categories: ["sleep"] } });
    expect(revoked.status, revoked.text).toBe(202);
    // A change by the tenant's key and one by an admin: writes in the tenant's audit log.
    const hook = await service.call("/v1/webhooks", { key: tenant.api_key, body: { url: "https://hooks.example.com/support" } });
    expect(hook.status, hook.text).toBe(201);
    const off = await service.call(`/v1/admin/tenants/${tenant.tenant_id}/providers/garmin`, { key: admin.key, method: "PATCH", body: { enabled: false } });
    expect(off.status, off.text).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await service?.stop();
  });

  describe.each(Object.entries(VIEWPORTS))("at %s size", (size, viewport) => {
    let console_: ConsoleBrowser;

    beforeAll(async () => {
      console_ = await openConsoleBrowser(service.url, { viewport });
      console_.page.setDefaultTimeout(15_000);
      await console_.signIn(admin.key);
    }, 60_000);

    afterAll(async () => {
      await console_?.close();
    });

    it("finds a user by the beginning of its external ref, exactly, or by id, and opens it", { timeout: 60_000 }, async () => {
      const { page } = console_;
      await console_.navigate(`/console/tenants/${tenant.tenant_id}/users`);
      const search = page.getByRole("search", { name: "Find a user" });
      await search.getByLabel("External ref or user id").fill("crm-47");
      await search.getByRole("button", { name: "Search" }).click();
      const found = page.getByRole("region", { name: "External ref starts with “crm-47”" });
      await found.getByText("All 2 users shown").waitFor();
      expect(await found.getByRole("link").allTextContents()).toEqual([users["crm-4711"], users["crm-4712"]]);
      await console_.expectAccessible(`the users search at ${size} size`);
      await saveScreenshot(page, `console-support-search-${size}`);

      await search.getByLabel("External ref", { exact: true }).selectOption("exact");
      await search.getByLabel("External ref or user id").fill("crm-4711");
      await search.getByRole("button", { name: "Search" }).click();
      const exact = page.getByRole("region", { name: "External ref is “crm-4711”" });
      await exact.getByText("All 1 users shown").waitFor();

      await search.getByLabel("External ref or user id").fill(users["crm-5000"]!);
      await search.getByRole("button", { name: "Search" }).click();
      const byId = page.getByRole("region", { name: "User with this id" });
      await byId.getByRole("link", { name: users["crm-5000"] }).waitFor();
      await page.getByRole("region", { name: `External ref is “${users["crm-5000"]}”` }).getByText("No active user's external ref matches.").waitFor();

      await search.getByLabel("External ref or user id").fill("00000000-0000-4000-8000-000000000000");
      await search.getByRole("button", { name: "Search" }).click();
      await byId.getByText("No user of this tenant has this id.").waitFor();
      await page.getByRole("button", { name: "Show all users" }).click();
      await page.getByRole("region", { name: "All active users" }).getByText("All 3 users shown").waitFor();

      await page.getByRole("link", { name: users["crm-4711"] }).click();
      await page.getByRole("heading", { name: `User ${users["crm-4711"]}` }).waitFor();
      expect(console_.errors).toEqual([]);
    });

    it("shows who the user is, its shares and its consents at the top of the user page", { timeout: 60_000 }, async () => {
      const { page } = console_;
      const userId = users["crm-4711"]!;
      await console_.navigate(`/console/tenants/${tenant.tenant_id}/users/${userId}`);
      const summary = page.getByRole("region", { name: "User summary" });
      await summary.getByText("crm-4711", { exact: true }).waitFor();
      expect(await summary.locator("dd").allTextContents()).toEqual(["crm-4711", "active", expect.stringMatching(/\d{4}/)]);

      const shares = page.getByRole("region", { name: "Shares" });
      const doctor = shares.getByRole("row").filter({ has: page.getByRole("rowheader", { name: /^doctor/ }) });
      await doctor.waitFor();
      expect(await cellUnder(shares.getByRole("table"), doctor, "Status")).toBe("active");
      const coach = shares.getByRole("row").filter({ has: page.getByRole("rowheader", { name: /^coach/ }) });
      expect(await cellUnder(shares.getByRole("table"), coach, "Status")).toMatch(/^revokedowner, /);

      const consents = page.getByRole("region", { name: "Consents" });
      const oura = consents.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "oura", exact: true }) });
      await oura.waitFor();
      expect(await cellUnder(consents.getByRole("table"), oura, "Consent")).toBe("partly revoked");
      expect(await cellUnder(consents.getByRole("table"), oura, "Revoked categories")).toBe("sleep");
      // The badge's word is whole, not cut to an ellipsis in a narrow column.
      const label = oura.locator(".mantine-Badge-label");
      expect(await label.evaluate((el) => (el as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth <= (el as unknown as { clientWidth: number }).clientWidth + 1)).toBe(true);
      const garmin = consents.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "garmin", exact: true }) });
      expect(await cellUnder(consents.getByRole("table"), garmin, "Consent")).toBe("granted");
      await console_.expectAccessible(`the user page at ${size} size`);
      await saveScreenshot(page, `console-support-user-${size}`);

      // A user being deleted still opens, saying so.
      const leaving = (await service.call("/v1/users", { key: tenant.api_key, body: {} })).body.id as string;
      expect((await service.call(`/v1/users/${leaving}`, { method: "DELETE", key: tenant.api_key })).status).toBe(202);
      await console_.navigate(`/console/tenants/${tenant.tenant_id}/users/${leaving}`);
      await page.getByRole("region", { name: "User summary" }).getByText("deleting", { exact: true }).waitFor();
      expect(console_.errors).toEqual([]);
    });

    it("says whether each provider is available to the tenant and why, in the same words on the providers tab and the pipeline", { timeout: 60_000 }, async () => {
      const { page } = console_;
      await console_.navigate(`/console/tenants/${tenant.tenant_id}/providers`);
      const providersTable = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Tenant switch" }) });
      await providersTable.waitFor();
      const onProvidersTab: Record<string, string> = {};
      for (const slug of ["oura", "garmin", "apple_health"]) {
        const row = providersTable.getByRole("row").filter({ hasText: slug });
        onProvidersTab[slug] = await cellUnder(providersTable, row.first(), "Available to this tenant");
      }
      expect(onProvidersTab).toEqual({
        oura: "unavailablethe instance has no keys for it (not configured)",
        garmin: "unavailableswitched off for this tenant",
        apple_health: "availabledevice uploads, no keys needed",
      });
      await console_.expectAccessible(`the providers tab at ${size} size`);
      await saveScreenshot(page, `console-support-providers-${size}`);

      await page.getByRole("tab", { name: "Pipeline" }).click();
      const sources = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Paused until" }) });
      await sources.waitFor();
      for (const [slug, text] of Object.entries(onProvidersTab)) {
        const row = sources.getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(`\\(${slug}\\)`) }) });
        await expect.poll(() => cellUnder(sources, row, "Available to this tenant"), { timeout: 10_000 }).toBe(text);
      }
      await page.getByRole("button", { name: "Pause updates" }).click();
      await console_.expectAccessible(`the pipeline at ${size} size`);
      await saveScreenshot(page, `console-support-pipeline-${size}`);
      expect(console_.errors).toEqual([]);
    });

    it("filters the tenant's audit log by user (from the user page), writes only, action and actor kind; and the instance's by actor", { timeout: 90_000 }, async () => {
      const { page } = console_;
      const userId = users["crm-4711"]!;
      await console_.navigate(`/console/tenants/${tenant.tenant_id}/users/${userId}`);
      // Every section has read (and so recorded) its answer.
      await page.getByRole("region", { name: "User summary" }).waitFor();
      for (const section of ["Shares", "Consents"]) await page.getByRole("region", { name: section }).getByRole("table").waitFor();
      await page.getByRole("link", { name: "Audit entries about this user" }).click();
      const log = page.getByRole("table", { name: "The tenant's audit log, newest first" });
      await log.waitFor();
      const targets = await log.getByRole("row").allTextContents();
      expect(targets.length).toBeGreaterThan(2);
      for (const row of targets.slice(1)) expect(row).toContain(`User: ${userId}`);
      const actions = async () => (await log.locator("tbody tr td:nth-child(3)").allTextContents()).map((text) => text.trim());
      expect(await actions()).toEqual(expect.arrayContaining(["user.read", "shares.read", "consents.read"]));
      await console_.expectAccessible(`the filtered audit log at ${size} size`);
      await saveScreenshot(page, `console-support-audit-user-${size}`);

      const filters = page.getByRole("search", { name: "Filter the audit log" });
      await filters.getByRole("button", { name: "Clear filters" }).click();
      await filters.getByRole("switch", { name: "Writes only" }).check();
      await filters.getByRole("button", { name: "Filter", exact: true }).click();
      await expect.poll(async () => [...new Set(await actions())].sort()).toEqual(["tenant.provider", "webhook.create"]);

      await filters.getByLabel("Action").fill("tenant.provider");
      await filters.getByRole("button", { name: "Filter", exact: true }).click();
      await expect.poll(actions).toEqual(["tenant.provider"]);

      await filters.getByLabel("Action").fill("");
      await filters.getByLabel("Actor kind").selectOption("tenant");
      await filters.getByRole("button", { name: "Filter", exact: true }).click();
      await expect.poll(actions).toEqual(["webhook.create"]);
      await log.getByText("Tenant key").waitFor();

      await filters.getByLabel("User id").fill("not-a-uuid");
      await filters.getByRole("button", { name: "Filter", exact: true }).click();
      await filters.getByText("A user id is a uuid").waitFor();

      // The instance's log: one admin key's writes.
      await console_.navigate("/console/audit-log");
      await page.getByRole("heading", { name: "Audit log", level: 2 }).waitFor();
      const instance = page.getByRole("search", { name: "Filter the audit log" });
      await instance.getByLabel("Actor (key id)").fill(admin.id);
      await instance.getByRole("switch", { name: "Writes only" }).check();
      await instance.getByRole("button", { name: "Filter", exact: true }).click();
      const instanceLog = page.getByRole("table", { name: "The instance's audit log, newest first" });
      await expect.poll(async () => (await instanceLog.locator("tbody tr td:nth-child(3)").allTextContents()).map((text) => text.trim())).toEqual(["tenant.provider"]);
      await settle(page);
      await console_.expectAccessible(`the instance's filtered audit log at ${size} size`);
      await saveScreenshot(page, `console-support-audit-instance-${size}`);
      expect(console_.errors).toEqual([]);
    });
  });
});
