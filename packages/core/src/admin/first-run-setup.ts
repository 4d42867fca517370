import type { Database } from "@svc/db";
import { AppError, type DbClient } from "../platform/index.ts";
import { countActiveAdminKeys, countTenants } from "./instance-setup-repository.ts";
import { countTenantDeletionJobs, createAdminKey, type CreatedTenant, createTenant, lockForTransaction } from "../identity/index.ts";
import { checkTenantName } from "./tenants.ts";

/** Advisory lock of the first-run setup: two racing setups create one tenant. */
const FIRST_RUN_LOCK = 731_002;

export interface FirstRunSetup {
  tenant: CreatedTenant;
  /** The instance admin key minted with it (shown once); null when the instance already had one. */
  admin_key: { id: string; name: string; admin_key: string } | null;
}

/**
 * Whether the browser first-run setup is open: the instance never had a tenant. Deleting the
 * last tenant does not open it again (an instance in use must not be claimable by whoever
 * reaches it first); its admin creates the next tenant from the console or the command line.
 */
export async function firstRunSetupOpen(db: DbClient): Promise<boolean> {
  return (await countTenants(db)) === 0 && (await countTenantDeletionJobs(db)) === 0;
}

/**
 * The browser first-run setup (POST /setup): on an instance with no tenant, creates the first
 * tenant with its API key and, when the instance has no admin key yet, an instance admin key
 * named "first-run", in one transaction under an advisory lock. 409 once a tenant exists; 400
 * for a name that is empty or longer than 100 characters (after trimming).
 */
export async function runFirstRunSetup(db: Database, tenantName: string): Promise<FirstRunSetup> {
  return db.$transaction(async (tx) => {
    await lockForTransaction(tx, FIRST_RUN_LOCK);
    if (!(await firstRunSetupOpen(tx))) throw new AppError("conflict", "This instance is already set up.");
    const tenant = await createTenant(tx, checkTenantName(tenantName));
    const adminKey = (await countActiveAdminKeys(tx)) === 0 ? await createAdminKey(tx, "first-run") : null;
    return { tenant, admin_key: adminKey };
  });
}
