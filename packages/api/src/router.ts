import { coverageRouter } from "./routers/coverage/router.ts";
import { deletionsRouter } from "./routers/deletions/router.ts";
import { usersRouter } from "./routers/users/router.ts";
import { samplesRouter } from "./routers/samples/router.ts";
import { sourceOrdersRouter } from "./routers/source-orders/router.ts";
import { router } from "./trpc.ts";

/** Every procedure of svc, once: served as /v1 REST, /openapi.yaml and /trpc. */
export const appRouter = router({
  users: usersRouter,
  deletions: deletionsRouter,
  samples: samplesRouter,
  sourceOrders: sourceOrdersRouter,
  coverage: coverageRouter,
});

export type AppRouter = typeof appRouter;
