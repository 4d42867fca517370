export { appRouter, type AppRouter } from "./router.ts";
export { createApiContext, type ApiContext } from "./context.ts";
export { buildOpenApiDocument, API_VERSION } from "./openapi.ts";
export { openApiYaml } from "./openapi-yaml.ts";
export { problemFor } from "./errors.ts";
