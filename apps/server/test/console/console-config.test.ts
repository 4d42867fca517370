import { applicationIdOf, createAdminKey } from "@svc/core";
import { browserAvailable, saveScreenshot } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACME, TEST_CATALOG } from "../helpers/keyed-connector.ts";
import { createUser } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { TEST_ENCRYPTION_KEY } from "../helpers/webhooks.ts";
import type { Page } from "playwright-core";
import { openConsoleBrowser, type ConsoleBrowser } from "./console-browser.ts";

// The console's configuration pages in a real browser: tenants, a tenant's providers and own
// keys, the instance's providers, audit logs. acme takes keys (CLIENT_ID, secret CLIENT_SECRET,
// optional REGION eu|us); zeta runs from the environment.

/** Secret values typed into the console: no answer of the instance may contain them. */
const TENANT_SECRET = "acme-SECRET-typed-in-console-7";
const ZETA_SECRET = "zeta-SECRET-typed-in-console-8";
const ENV_SECRET = "zeta-SECRET-from-the-environment";

/** Lets Mantine's open and close transitions (200 ms) end, so axe sees final colours. */
const settle = (page: Page) => page.waitForTimeout(400);

describe.runIf(browserAvailable())("console: configuration pages", () => {
  let service: TestService;
  let console_: ConsoleBrowser;
  let adminKey: string;
  let tenantId: string;
  let tenantKey: string;

  beforeAll(async () => {
    service = await startTestService(
      {
        SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        SVC_ZETA_CLIENT_ID: "zeta-client-000111",
        SVC_ZETA_CLIENT_SECRET: ENV_SECRET,
      },
      { providers: TEST_CATALOG },
    );
    adminKey = (await createAdminKey(service.db, "console config test")).admin_key;
    console_ = await openConsoleBrowser(service.url);
    // Shorter than the test's timeout, so a missing element fails with its locator.
    console_.page.setDefaultTimeout(10_000);
    await console_.signIn(adminKey);
  });
  afterAll(async () => {
    await console_?.close();
    await service?.stop();
  });

  const listing = async (key: string) => {
    const answer = await service.call("/v1/providers", { key });
    expect(answer.status, answer.text).toBe(200);
    return (answer.body.data as Array<{ slug: string }>).map((provider) => provider.slug);
  };

  it("creates a tenant from the tenants page and shows its key once", async () => {
    const { page } = console_;
    await page.getByRole("heading", { name: "Tenants", level: 2 }).waitFor();
    await console_.expectAccessible("the tenants page");
    await page.getByRole("button", { name: "Create tenant" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("Console Co");
    await dialog.getByRole("button", { name: "Create", exact: true }).click();
    await dialog.getByText("Store this key now").waitFor();
    tenantKey = (await dialog.getByText(/^svc_sk_/).textContent()) ?? "";
    expect(tenantKey).toMatch(/^svc_sk_/);
    await dialog.getByRole("button", { name: "Copy tenant API key" }).waitFor();
    await settle(page);
    await console_.expectAccessible("the new tenant's key, shown once");
    await saveScreenshot(page, "console-tenant-created-key");

    // Escape does not close the dialog while the key is shown: only Done does.
    await page.keyboard.press("Escape");
    await settle(page);
    expect(await dialog.getByText(tenantKey).isVisible()).toBe(true);
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "detached" });
    const link = page.getByRole("link", { name: "Console Co" });
    await link.waitFor();
    expect(await page.content()).not.toContain(tenantKey);
    await saveScreenshot(page, "console-tenants");
    expect(await listing(tenantKey)).toContain("zeta");

    await link.click();
    await page.getByRole("heading", { name: "Console Co", level: 2 }).waitFor();
    tenantId = /\/tenants\/([^/]+)\/providers/.exec(page.url())?.[1] ?? "";
    expect(tenantId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("switches a provider off and on for the tenant; GET /v1/providers follows", async () => {
    const { page } = console_;
    const zeta = page.getByRole("switch", { name: "Enable Zeta Fitness for this tenant" });
    await zeta.waitFor();
    expect(await zeta.isChecked()).toBe(true);
    await console_.expectAccessible("the tenant's providers tab");
    await saveScreenshot(page, "console-tenant-providers");

    await zeta.click();
    await page.getByRole("status").getByText("Zeta Fitness switched off for this tenant.").waitFor();
    expect(await zeta.isChecked()).toBe(false);
    expect(await listing(tenantKey)).not.toContain("zeta");

    await zeta.click();
    await page.getByRole("status").getByText("Zeta Fitness switched on for this tenant.").waitFor();
    expect(await listing(tenantKey)).toContain("zeta");
  });

  it("sets the tenant's own keys: consequence before, problems inline, reauth_required after", async () => {
    const { page } = console_;
    // A connection the tenant made with the instance's keys: the tenant's own keys name another application.
    const userId = await createUser(service, tenantKey);
    await service.db.connection.create({
      data: {
        userId,
        provider: "acme",
        keySource: "instance",
        applicationId: applicationIdOf(ACME, { CLIENT_ID: "acme-client-inst-01" }),
        status: "active",
        providerUserId: "pu-console",
        nextPullAt: new Date(Date.now() + 86_400_000),
      },
    });
    // Device and built-in providers take no keys: no button.
    expect(await page.getByRole("button", { name: /^Own keys of (Xiaomi|Demo)/ }).count()).toBe(0);

    await page.getByRole("button", { name: "Own keys of Acme Health" }).click();
    const drawer = page.getByRole("dialog", { name: "Own keys of Acme Health" });
    await drawer.getByText(`${service.url}/oauth/acme/callback`).waitFor();
    await drawer.getByRole("button", { name: "Copy Redirect URL" }).waitFor();
    await drawer.getByText("Not set", { exact: true }).first().waitFor();
    await settle(page);
    await console_.expectAccessible("the tenant's own keys drawer");

    // Missing required keys are named before anything is sent.
    await drawer.getByRole("button", { name: "Review and save" }).click();
    await drawer.getByText("CLIENT_SECRET is required").waitFor();

    await drawer.getByLabel("CLIENT_ID").fill("acme-client-console-1");
    await drawer.getByLabel("CLIENT_SECRET").fill(TENANT_SECRET);
    await drawer.getByLabel("REGION").fill("mars");
    await drawer.getByRole("button", { name: "Review and save" }).click();
    const consequence = drawer.getByText("The tenant has 1 active connection of Acme Health");
    await consequence.waitFor();
    await drawer.getByText("must reconnect", { exact: false }).first().waitFor();
    await console_.expectAccessible("the consequence shown before saving keys");
    await saveScreenshot(page, "console-tenant-provider-keys-consequence");

    // The provider's own rule (422) shows inline; nothing was saved.
    await drawer.getByRole("button", { name: "Save keys" }).click();
    await drawer.getByRole("alert").getByText("REGION must be eu or us.").waitFor();
    expect((await service.call(`/v1/admin/tenants/${tenantId}/providers/acme/keys`, { key: adminKey })).body.set).toBe(false);

    await drawer.getByLabel("REGION").fill("eu");
    await drawer.getByRole("button", { name: "Review and save" }).click();
    await consequence.waitFor();
    await drawer.getByRole("button", { name: "Save keys" }).click();
    await drawer.getByRole("status").getByText("1 connection must reconnect (reauth_required: 1).").waitFor();
    await drawer.getByText("acme…le-1").waitFor();
    expect(await drawer.getByLabel("CLIENT_SECRET").inputValue()).toBe("");
    await console_.expectAccessible("the own keys drawer after saving");
    await saveScreenshot(page, "console-tenant-provider-keys-saved");

    const keys = await service.call(`/v1/admin/tenants/${tenantId}/providers/acme/keys`, { key: adminKey });
    expect(keys.status, keys.text).toBe(200);
    expect(keys.body).toMatchObject({ set: true, status: "active", client_id: "acme…le-1" });
    expect(keys.body.keys.map((key: { name: string; set: boolean }) => [key.name, key.set])).toEqual([
      ["CLIENT_ID", true],
      ["CLIENT_SECRET", true],
      ["REGION", true],
    ]);
    expect(await listing(tenantKey)).toContain("acme");

    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Own keys of Acme Health" }).getByText("Own keys (set)").waitFor();
  });

  it("removes the tenant's own keys after showing the consequence", async () => {
    const { page } = console_;
    await page.getByRole("button", { name: "Own keys of Acme Health" }).click();
    const drawer = page.getByRole("dialog", { name: "Own keys of Acme Health" });
    await drawer.getByRole("button", { name: "Remove own keys" }).click();
    await drawer.getByText("Remove own keys?").waitFor();
    await drawer.getByText("The tenant has 0 active connections of Acme Health (1 already waiting to reconnect, 0 disconnected).").waitFor();
    await console_.expectAccessible("the consequence shown before removing keys");
    await drawer.getByRole("button", { name: "Remove keys" }).click();
    await drawer.getByRole("status").getByText("No connection has to reconnect (reauth_required: 0).").waitFor();
    const keys = await service.call(`/v1/admin/tenants/${tenantId}/providers/acme/keys`, { key: adminKey });
    expect(keys.body).toMatchObject({ set: false, status: "not_set" });
    expect(await listing(tenantKey)).not.toContain("acme");
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
  });

  it("shows the instance's providers with the addresses to register; environment keys refuse console keys", async () => {
    const { page } = console_;
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Instance providers" }).click();
    await page.getByRole("heading", { name: "Instance providers", level: 2 }).waitFor();
    // Away from the navigation: the hovered active link is the shell's (not this page's) contrast.
    await page.mouse.move(700, 10);
    const acme = page.getByRole("region", { name: "Acme Health" });
    await acme.getByText(`${service.url}/oauth/acme/callback`).waitFor();
    await acme.getByRole("button", { name: "Copy redirect URL of Acme Health" }).waitFor();
    const zeta = page.getByRole("region", { name: "Zeta Fitness" });
    await zeta.getByText("Environment variables").waitFor();
    await zeta.getByText("SVC_ZETA_CLIENT_SECRET").waitFor();
    await zeta.getByText("zeta-client-000111").waitFor();
    await console_.expectAccessible("the instance providers page");
    await saveScreenshot(page, "console-instance-providers");

    // The instance switch, saved from the console, then forgotten.
    const acmeSwitch = acme.getByRole("switch", { name: "Enable Acme Health on this instance" });
    expect(await acmeSwitch.isChecked()).toBe(true);
    await acmeSwitch.click();
    await page.getByRole("status").getByText("Acme Health switched off on the instance.").waitFor();
    expect((await service.call("/v1/admin/providers/acme", { key: adminKey })).body).toMatchObject({ enabled: false, status: "off" });
    await acme.getByRole("button", { name: "Delete saved configuration of Acme Health" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete saved configuration of Acme Health?" });
    await confirm.getByText("Environment variables are untouched", { exact: false }).waitFor();
    await settle(page);
    await console_.expectAccessible("the confirmation before deleting saved configuration");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("status").getByText("Saved configuration of Acme Health deleted").waitFor();
    await acme.getByRole("button", { name: "Delete saved configuration of Acme Health" }).waitFor({ state: "detached" });
    expect((await service.call("/v1/admin/providers/acme", { key: adminKey })).body).toMatchObject({ enabled: true, updated_at: null });

    // Console keys are refused while the environment configures the provider.
    await zeta.getByRole("button", { name: "Set console keys of Zeta Fitness" }).click();
    const dialog = page.getByRole("dialog", { name: "Console keys of Zeta Fitness" });
    await dialog.getByLabel("CLIENT_ID").fill("zeta-client-console");
    await dialog.getByLabel("CLIENT_SECRET").fill(ZETA_SECRET);
    await dialog.getByRole("button", { name: "Review and save" }).click();
    await dialog.getByRole("button", { name: "Save keys" }).click();
    await dialog.getByRole("alert").getByText("The environment configures zeta").waitFor();
    await settle(page);
    await console_.expectAccessible("the instance keys dialog refused by the environment");
    await saveScreenshot(page, "console-instance-keys-refused");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
  });

  it("lists the switch and the keys in the instance's and the tenant's audit logs", async () => {
    const { page } = console_;
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Audit log" }).click();
    await page.getByRole("heading", { name: "Audit log", level: 2 }).waitFor();
    await page.mouse.move(700, 10);
    const table = page.getByRole("table", { name: "The instance's audit log, newest first" });
    await table.getByRole("cell", { name: "tenant.provider_keys", exact: true }).first().waitFor();
    expect(await table.getByRole("cell", { name: "tenant.provider", exact: true }).count()).toBe(2);
    expect(await table.getByRole("cell", { name: "tenant.provider_keys.delete", exact: true }).count()).toBe(1);
    expect(await table.getByRole("cell", { name: "instance.provider.delete", exact: true }).count()).toBe(1);
    await console_.expectAccessible("the instance's audit log");
    await saveScreenshot(page, "console-audit-log");

    // In-app navigation: a reload would sign out (the key lives in memory only).
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Tenants" }).click();
    await page.getByRole("link", { name: "Console Co" }).click();
    await page.getByRole("tab", { name: "Audit log" }).click();
    const tenantTable = page.getByRole("table", { name: "The tenant's audit log, newest first" });
    await tenantTable.getByRole("cell", { name: "tenant.provider_keys", exact: true }).first().waitFor();
    await page.getByRole("heading", { name: "Console Co", level: 2 }).waitFor();
    await console_.expectAccessible("the tenant's audit log tab");
    await saveScreenshot(page, "console-tenant-audit-log");
  });

  it("never received a secret it was not meant to show", async () => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(console_.answers.length).toBeGreaterThan(10);
    for (const answer of console_.answers) {
      expect(answer).not.toContain(TENANT_SECRET);
      expect(answer).not.toContain(ZETA_SECRET);
      expect(answer).not.toContain(ENV_SECRET);
      expect(answer).not.toContain(adminKey);
    }
  });
});
