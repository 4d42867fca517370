export { appRouter, type AppRouter } from "./router.ts";
export { createApiContext, type ApiContext } from "./context.ts";
export { buildOpenApiDocument, API_VERSION } from "./openapi.ts";
export { OPENAPI_COMPONENTS } from "./openapi-components.ts";
export { eventComponentName } from "./openapi-webhooks.ts";
export { openApiYaml } from "./openapi-yaml.ts";
export { problemFor } from "./errors.ts";
