// Inside test files: what goes into the run folder of the leak scan (see leak-scan.ts). Every
// service a test starts appends its log lines; the tests record each secret they send, receive
// or configure.
import { appendFileSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { isSecretLike } from "./leak-scan.ts";
import "./provided-context.ts";

let dirOfRun: string | undefined;

/** The run folder the global setup made. */
export function runLogsDir(): string {
  dirOfRun ??= inject("runLogsDir");
  return dirOfRun;
}

/** Appends one log line (a JSON text) of a service or child process of this test process. */
export function appendRunLog(line: string, source = "service"): void {
  appendFileSync(path.join(runLogsDir(), "logs", `${source}-${process.pid}.log`), line.endsWith("\n") ? line : `${line}\n`);
}

const recorded = new Set<string>();

/** Records secrets (keys, tokens, passcodes, health-value markers) that must never be logged. */
export function recordSecrets(...values: (string | null | undefined)[]): void {
  const fresh = values.filter((value): value is string => typeof value === "string" && isSecretLike(value) && !recorded.has(value));
  if (fresh.length === 0) return;
  for (const value of fresh) recorded.add(value);
  appendFileSync(path.join(runLogsDir(), "secrets", `${process.pid}.txt`), `${fresh.join("\n")}\n`);
}

/** Field names whose string values are secrets wherever they appear in a JSON body. */
const SECRET_FIELD = /^(api_key|admin_key|token|passcode|link|shlink)$|_token$|secret|password|private_key|signature_key|verification_code/i;

/**
 * Records the secrets in a JSON request or answer: fields named like a secret, the token of a
 * hosted connect link and the `state` of an authorize URL.
 */
export function recordSecretsIn(json: unknown): void {
  const found: string[] = [];
  const visit = (value: unknown, name: string): void => {
    if (typeof value === "string") {
      if (SECRET_FIELD.test(name)) found.push(value);
      const connectToken = /\/connect\/([^/?#]+)/.exec(value)?.[1];
      if (connectToken && /^https?:/.test(value)) found.push(connectToken);
      if (name === "authorize_url") found.push(new URL(value).searchParams.get("state") ?? "");
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, name);
    } else if (value && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) visit(item, key);
    }
  };
  visit(json, "");
  recordSecrets(...found);
}

/** Records the values of environment settings that name a key, secret, token or password. */
export function recordSecretsOfEnv(env: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(env)) {
    if (value && /KEY|SECRET|TOKEN|PASSWORD/.test(name)) recordSecrets(...value.split(","));
  }
}
