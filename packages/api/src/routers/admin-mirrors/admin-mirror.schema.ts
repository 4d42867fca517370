import { ZId } from "../../schemas/common.ts";

/** The tenant a mirror route reads: `/v1/admin/tenants/{tenant_id}/...`. */
export const ZTenantPath = { tenant_id: ZId("tenant") };

export const MIRROR_NOTE = "Read-only mirror for an instance admin: recorded in the instance's audit log and in the tenant's.";
