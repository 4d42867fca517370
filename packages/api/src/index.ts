export { appRouter, type AppRouter } from "./router.ts";
export { createApiContext, type ApiContext } from "./context.ts";
export { buildOpenApiDocument, API_VERSION } from "./openapi.ts";
export { problemFor } from "./errors.ts";
