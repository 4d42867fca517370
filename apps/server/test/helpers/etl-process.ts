import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { TEST_ENCRYPTION_KEY } from "./webhooks.ts";

const MAIN = path.resolve(import.meta.dirname, "../../src/main.ts");

/**
 * `node apps/server/src/main.ts` with SVC_ROLE=etl, as production runs it: its own process,
 * so a test can kill it with SIGKILL. Resolves once it logged "svc started"; everything it
 * writes is appended to `output`.
 */
export async function startEtlProcess(databaseUrl: string, dataDir: string, output: string[], env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      SVC_ROLE: "etl",
      // The etl role listens for its probes (/healthz, /readyz): a free port, as test files run side by side.
      PORT: "0",
      SVC_HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      SVC_DATA_DIR: dataDir,
      SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SVC_WEBHOOK_ALLOW_PRIVATE: "true",
      SVC_LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`etl process exited with ${code}:\n${output.join("")}`));
    child.once("exit", onExit);
    const check = setInterval(() => {
      if (!output.join("").includes('"msg":"svc started"')) return;
      clearInterval(check);
      child.off("exit", onExit);
      resolve();
    }, 50);
  });
  return child;
}

/** Resolves when the process has ended (at once when it has already). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Ends every process still running (SIGTERM) and waits for each. */
export async function stopProcesses(children: ChildProcess[]): Promise<void> {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited(child);
  }
}
