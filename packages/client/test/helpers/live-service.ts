// The real svc (HTTP and workers) in this process on a fresh test database, for the client
// tests. The tenant comes from SVC_BOOTSTRAP_TENANT: the client package reaches the service
// only through @svc/server, as a tenant's backend reaches it only over HTTP.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { EnvSchema, createLogger, startService } from "@svc/server";
import { createTestDatabase } from "@svc/testing";

export interface LiveService {
  url: string;
  /** The API key of the bootstrap tenant. */
  apiKey: string;
  stop(): Promise<void>;
}

export async function startLiveService(): Promise<LiveService> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "svc-client-test-"));
  const logs: string[] = [];
  const logger = createLogger("info", { write: (line: string) => void logs.push(line) });
  const env = EnvSchema.parse({
    PORT: "0",
    SVC_HOST: "127.0.0.1",
    DATABASE_URL: await createTestDatabase(),
    SVC_DATA_DIR: dataDir,
    SVC_BOOTSTRAP_TENANT: "client tests",
    // Lets webhook endpoints point at the local receiver (http on 127.0.0.1).
    SVC_WEBHOOK_ALLOW_PRIVATE: "true",
  });
  const service = await startService(env, logger);
  const apiKey = logs.map((line) => /Bootstrap tenant created\. .*?(svc_sk_\S+?)"/.exec(line)?.[1]).find(Boolean);
  if (!service.url || !apiKey) throw new Error("the service did not start with a bootstrap tenant");
  return {
    url: service.url,
    apiKey,
    async stop() {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
