import type { CoreDeps } from "@svc/core";
import type { Logger } from "pino";

export interface WorkerDeps extends CoreDeps {
  logger: Logger;
}
