import { createAdminKey } from "@svc/core";
import { browserAvailable, saveScreenshot } from "@svc/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { openConsoleBrowser, VIEWPORTS, type ConsoleBrowser } from "./console-browser.ts";

// Deleting a tenant from the console, at a desktop's and a phone's size: the confirmation asks
// for the tenant's name, the dialog follows the deletion to its end, and a tenant being deleted
// shows as such in the list and on its page (whose tabs are closed).

/** Lets Mantine's open and close transitions (200 ms) end, so axe sees final colours. */
const settle = (page: Page) => page.waitForTimeout(400);

/** Nothing is wider than the window (no sideways scrolling on a phone). */
async function expectNoOverflow(page: Page, width: number) {
  const scrollWidth = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(width);
}

describe.runIf(browserAvailable())("console: deleting a tenant", () => {
  let service: TestService;
  let adminKey: string;

  beforeAll(async () => {
    service = await startTestService();
    adminKey = (await createAdminKey(service.db, "console tenant deletion")).admin_key;
  });
  afterAll(() => service?.stop());

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    describe(`at ${size} size (${viewport.width}x${viewport.height})`, () => {
      let console_: ConsoleBrowser;

      beforeAll(async () => {
        console_ = await openConsoleBrowser(service.url, { viewport });
        console_.page.setDefaultTimeout(15_000);
        await console_.signIn(adminKey);
      });
      afterAll(() => console_?.close());

      it("asks for the tenant's name, then follows the deletion to its end", async () => {
        const { page } = console_;
        const name = `Doomed ${size}`;
        const tenant = await service.createTenant(name);
        await createUser(service, tenant.api_key);
        await createUser(service, tenant.api_key);
        await console_.navigate(`/console/tenants/${tenant.tenant_id}/providers`);
        await page.getByRole("heading", { name, level: 2 }).waitFor();

        await page.getByRole("button", { name: "Delete tenant" }).click();
        const dialog = page.getByRole("dialog", { name: `Delete ${name}` });
        await dialog.getByText("This cannot be undone").waitFor();
        await dialog.getByText("its 2 users with all their records").waitFor();
        const confirm = dialog.getByRole("button", { name: "Delete tenant" });
        expect(await confirm.isDisabled()).toBe(true);
        await dialog.getByLabel("Tenant name").fill(name.toLowerCase());
        expect(await confirm.isDisabled()).toBe(true);
        await settle(page);
        await console_.expectAccessible(`the delete tenant dialog (${size})`);
        await expectNoOverflow(page, viewport.width);
        await saveScreenshot(page, `console-tenant-delete-confirm-${size}`);
        // Nothing was sent yet.
        expect((await service.call("/v1/users", { key: tenant.api_key })).status).toBe(200);

        await dialog.getByLabel("Tenant name").fill(name);
        await confirm.click();
        await dialog.getByRole("status").getByText("2 of 2 users deleted; the tenant was deleted at").waitFor();
        await dialog.getByText("done", { exact: true }).waitFor();
        expect(await dialog.getByRole("progressbar", { name: "Users deleted" }).getAttribute("aria-valuenow")).toBe("100");
        await settle(page);
        await console_.expectAccessible(`the finished deletion (${size})`);
        await expectNoOverflow(page, viewport.width);
        await saveScreenshot(page, `console-tenant-deleted-${size}`);
        expect((await service.call("/v1/users", { key: tenant.api_key })).status).toBe(401);

        await dialog.getByRole("button", { name: "Back to tenants" }).click();
        await dialog.waitFor({ state: "detached" });
        await page.getByRole("heading", { name: "Tenants", level: 2 }).waitFor();
        await page.getByRole("link", { name }).waitFor({ state: "detached" });
        expect(console_.errors).toEqual([]);
      });

      it("shows a tenant being deleted as deleting, and its page shows the deletion instead of its tabs", async () => {
        const { page } = console_;
        const name = `Leaving ${size}`;
        const tenant = await service.createTenant(name);
        // A deletion the worker has not finished: its rows as the DELETE and the job write them.
        await service.db.tenant.update({ where: { id: tenant.tenant_id }, data: { status: "deleting" } });
        const job = await service.db.tenantDeletionJob.create({
          data: { tenantId: tenant.tenant_id, tenantName: name, status: "running", usersTotal: 3, usersDeleted: 1, startedAt: new Date() },
        });

        await console_.navigate(`/console/tenants/${tenant.tenant_id}/providers`);
        await page.getByText("This tenant is being deleted").waitFor();
        await page.getByRole("status").getByText("1 of 3 users deleted.").waitFor();
        expect(await page.getByRole("tab").count()).toBe(0);
        expect(await page.getByRole("button", { name: "Delete tenant" }).count()).toBe(0);
        await console_.expectAccessible(`a tenant being deleted (${size})`);
        await expectNoOverflow(page, viewport.width);
        await saveScreenshot(page, `console-tenant-deleting-${size}`);

        await page.getByRole("link", { name: "Back to the tenants" }).click();
        const row = page.getByRole("row").filter({ has: page.getByRole("link", { name }) });
        await row.getByText("deleting").waitFor();
        await console_.expectAccessible(`the tenants list with a tenant being deleted (${size})`);
        await expectNoOverflow(page, viewport.width);
        await row.getByRole("link", { name }).click();
        await page.getByText("This tenant is being deleted").waitFor();

        // The page follows the job: it ends while the page is open.
        await service.db.tenantDeletionJob.update({ where: { id: job.id }, data: { status: "done", usersDeleted: 3, finishedAt: new Date() } });
        await page.getByRole("status").getByText("3 of 3 users deleted; the tenant was deleted at").waitFor();
        await page.getByText("This tenant was deleted.").waitFor();
        await service.db.tenant.delete({ where: { id: tenant.tenant_id } });
        await page.getByRole("link", { name: "Back to the tenants" }).click();
        await page.getByRole("heading", { name: "Tenants", level: 2 }).waitFor();
        await page.getByRole("link", { name }).waitFor({ state: "detached" });
        expect(console_.errors).toEqual([]);
      });
    });
  }
});
