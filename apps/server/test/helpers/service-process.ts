// The service as its own process, as in production: `node apps/server/src/main.ts` with env,
// e.g. SVC_ROLE=etl for a worker process that a test can kill with SIGKILL (`child`).
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { appendRunLog, recordSecretsOfEnv } from "@svc/testing";
import { expect } from "vitest";

const MAIN = path.resolve(import.meta.dirname, "../../src/main.ts");

export interface ServiceProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> it listens on (the API, or the etl role's probes). */
  url: string;
  /** Everything it wrote to stdout and stderr. */
  output: string[];
  /** Resolves with its exit code once it ended. */
  exited: Promise<number | null>;
  /** SIGTERM (unless it ended already); resolves with its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts main.ts (or `entry`, e.g. a release bundle's server.mjs, run from `cwd`) on an ephemeral
 * port of 127.0.0.1; resolves once it logged "svc started".
 */
export async function startServiceProcess(env: Record<string, string>, options: { entry?: string; cwd?: string } = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [options.entry ?? MAIN], {
    cwd: options.cwd,
    env: { ...process.env, PORT: "0", SVC_HOST: "127.0.0.1", SVC_LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  // Its whole output joins the run's logs, scanned for the tests' secrets when the run ends.
  recordSecretsOfEnv(env);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      appendRunLog(output.join(""), "process");
      resolve(code);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    void exited.then((code) => reject(new Error(`the service exited with ${code}:\n${output.join("")}`)));
    const check = setInterval(() => {
      // Complete lines only: the last one may still be arriving.
      const started = output
        .join("")
        .split("\n")
        .slice(0, -1)
        .find((line) => line.includes('"msg":"svc started"'));
      if (!started) return;
      clearInterval(check);
      resolve((JSON.parse(started) as { url: string }).url);
    }, 50);
    void exited.then(() => clearInterval(check));
  });
  return {
    child,
    url,
    output,
    exited,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** The process's log lines (pino JSON) that parse. */
export function logLines(service: ServiceProcess): Array<Record<string, unknown>> {
  return service.output
    .join("")
    .split("\n")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

/** POSTs JSON with a bearer key; expects a 2xx and returns its JSON. */
export async function post(service: ServiceProcess, path: string, key: string, body: unknown): Promise<any> {
  const response = await fetch(`${service.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return JSON.parse(text);
}
