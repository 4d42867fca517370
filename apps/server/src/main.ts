import { providerEnvironment, readEnv } from "./env.ts";
import { createLogger } from "./logger.ts";
import { startService } from "./start-service.ts";

const env = readEnv();
const logger = createLogger(env.SVC_LOG_LEVEL);

try {
  const service = await startService(env, logger, { providerEnv: providerEnvironment() });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping");
    await service.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
} catch (error) {
  logger.fatal({ err: error }, "svc could not start");
  process.exit(1);
}
