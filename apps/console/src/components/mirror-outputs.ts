import type { AppRouter } from "@svc/api";
import type { inferRouterOutputs } from "@trpc/server";

/** The answers of the admin mirror procedures, by procedure name. */
export type MirrorOutputs = inferRouterOutputs<AppRouter>["adminMirrors"];
