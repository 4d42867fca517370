import { router } from "../../trpc.ts";
import { listAdminAuditLog } from "./list-admin-audit-log.ts";
import { listAuditLog } from "./list-audit-log.ts";
import { listTenantAuditLog } from "./list-tenant-audit-log.ts";

/** The tenant's audit log (tenant key), the instance's and a tenant's (instance admin key). */
export const auditLogRouter = router({ listAuditLog, listAdminAuditLog, listTenantAuditLog });
