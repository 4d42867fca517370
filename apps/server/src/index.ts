export { createApp } from "./app.ts";
export { readEnv, EnvSchema, type Env } from "./env.ts";
export { createLogger } from "./logger.ts";
export { startService, type RunningService } from "./start-service.ts";
