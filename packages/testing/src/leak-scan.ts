// The whole test run's logs and the secrets the tests saw, in one folder per run made by the
// global setup (tests write into it through run-logs.ts). When the run ends the global setup
// looks for every secret in every log line: one found fails the run.
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Shorter values are too likely to occur by chance (and are no real secret). */
const MIN_SECRET_LENGTH = 10;

/**
 * Whether a value can be told apart from other text: long enough and not a run of a few
 * characters (a test's `x` repeated 65 times as a wrong key also makes a valid request id).
 */
export function isSecretLike(value: string): boolean {
  return value.length >= MIN_SECRET_LENGTH && !value.includes("\n") && new Set(value).size >= 5;
}

/**
 * Log lines that show a secret on purpose: the bootstrap tenant's key is logged once, at the
 * first start (interface spec, Authentication 6).
 */
const DISCLOSURES = [/Bootstrap tenant created\. Its API key, shown only this once/];

export interface Leak {
  /** The log file, relative to the run folder. */
  file: string;
  line: number;
  /** The start of the secret only: the report of a leak must not leak it again. */
  secretStart: string;
}

/** Makes the run folder's layout. */
export function prepareRunLogsDir(dir: string): void {
  mkdirSync(path.join(dir, "logs"), { recursive: true });
  mkdirSync(path.join(dir, "secrets"), { recursive: true });
}

/**
 * Every recorded secret found in a log line of the run folder. Thousands of secrets against
 * megabytes of logs: each secret is indexed by its last MIN_SECRET_LENGTH characters, every
 * window of that length of a line is looked up, and only a hit is compared in full.
 */
export function findLeaks(dir: string): Leak[] {
  const byEnd = new Map<string, Set<string>>();
  for (const name of readdirSync(path.join(dir, "secrets"))) {
    for (const secret of readFileSync(path.join(dir, "secrets", name), "utf8").split("\n")) {
      if (!isSecretLike(secret)) continue;
      const end = secret.slice(-MIN_SECRET_LENGTH);
      byEnd.set(end, (byEnd.get(end) ?? new Set()).add(secret));
    }
  }
  const leaks: Leak[] = [];
  for (const name of readdirSync(path.join(dir, "logs"))) {
    const lines = readFileSync(path.join(dir, "logs", name), "utf8").split("\n");
    for (const [index, line] of lines.entries()) {
      const found = secretsIn(line, byEnd);
      if (found !== undefined && !DISCLOSURES.some((pattern) => pattern.test(line))) {
        leaks.push({ file: path.join("logs", name), line: index + 1, secretStart: `${found.slice(0, 6)}…` });
      }
    }
  }
  return leaks;
}

function secretsIn(line: string, byEnd: Map<string, Set<string>>): string | undefined {
  for (let end = MIN_SECRET_LENGTH; end <= line.length; end++) {
    const candidates = byEnd.get(line.slice(end - MIN_SECRET_LENGTH, end));
    if (candidates === undefined) continue;
    for (const secret of candidates) if (line.startsWith(secret, end - secret.length)) return secret;
  }
  return undefined;
}
