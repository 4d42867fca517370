export { appRouter, type AppRouter } from "./router.ts";
export { createApiContext, type ApiContext } from "./context.ts";
export { buildOpenApiDocument, API_VERSION } from "./openapi.ts";
export { problemFor, statusFor, toAppError } from "./errors.ts";
export { createCallerFactory } from "./trpc.ts";
