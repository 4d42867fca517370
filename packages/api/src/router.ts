import { coverageRouter } from "./routers/coverage/router.ts";
import { deletionsRouter } from "./routers/deletions/router.ts";
import { usersRouter } from "./routers/users/router.ts";
import { samplesRouter } from "./routers/samples/router.ts";
import { sourceOrdersRouter } from "./routers/source-orders/router.ts";
import { categorySamplesRouter } from "./routers/category-samples/router.ts";
import { sleepRouter } from "./routers/sleep/router.ts";
import { workoutsRouter } from "./routers/workouts/router.ts";
import { menstrualCyclesRouter } from "./routers/menstrual-cycles/router.ts";
import { nutritionRouter } from "./routers/nutrition/router.ts";
import { dailyRouter } from "./routers/daily/router.ts";
import { heartbeatsRouter } from "./routers/heartbeats/router.ts";
import { ecgRouter } from "./routers/ecg/router.ts";
import { tagsRouter } from "./routers/tags/router.ts";
import { sharesRouter } from "./routers/shares/router.ts";
import { selfReportsRouter } from "./routers/self-reports/router.ts";
import { uploadsRouter } from "./routers/uploads/router.ts";
import { webhooksRouter } from "./routers/webhooks/router.ts";
import { providersRouter } from "./routers/providers/router.ts";
import { adminProvidersRouter } from "./routers/admin-providers/router.ts";
import { connectionsRouter } from "./routers/connections/router.ts";
import { syncRouter } from "./routers/sync/router.ts";
import { adminMirrorsRouter } from "./routers/admin-mirrors/router.ts";
import { pipelineRouter } from "./routers/pipeline/router.ts";
import { auditLogRouter } from "./routers/audit-log/router.ts";
import { adminTenantsRouter } from "./routers/admin-tenants/router.ts";
import { fhirRouter } from "./routers/fhir/router.ts";
import { fhirBaseRouter } from "./routers/fhir-base/router.ts";
import { fhirExportRouter } from "./routers/fhir-export/router.ts";
import { consentsRouter } from "./routers/consents/router.ts";
import { router } from "./trpc.ts";

/** Every procedure of svc, once: served as /v1 REST, /openapi.yaml and /trpc. */
export const appRouter = router({
  users: usersRouter,
  deletions: deletionsRouter,
  samples: samplesRouter,
  sourceOrders: sourceOrdersRouter,
  coverage: coverageRouter,
  categorySamples: categorySamplesRouter,
  sleep: sleepRouter,
  workouts: workoutsRouter,
  menstrualCycles: menstrualCyclesRouter,
  nutrition: nutritionRouter,
  daily: dailyRouter,
  heartbeats: heartbeatsRouter,
  ecg: ecgRouter,
  tags: tagsRouter,
  shares: sharesRouter,
  selfReports: selfReportsRouter,
  uploads: uploadsRouter,
  webhooks: webhooksRouter,
  providers: providersRouter,
  adminProviders: adminProvidersRouter,
  connections: connectionsRouter,
  sync: syncRouter,
  fhir: fhirRouter,
  // Before fhirBase: its Patient/{id} would take Patient/$export.
  fhirExport: fhirExportRouter,
  fhirBase: fhirBaseRouter,
  pipeline: pipelineRouter,
  adminMirrors: adminMirrorsRouter,
  auditLog: auditLogRouter,
  adminTenants: adminTenantsRouter,
  consents: consentsRouter,
});

export type AppRouter = typeof appRouter;
