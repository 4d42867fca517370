import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@svc/api";

/** One provider as GET /v1/admin/providers lists it. */
export type InstanceProvider = inferRouterOutputs<AppRouter>["adminProviders"]["listInstanceProviders"]["data"][number];
