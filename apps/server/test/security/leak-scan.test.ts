// The scan that fails a test run when a recorded secret is in a log line (leak-scan.ts, run by
// the global setup's teardown), and the recording that feeds it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findLeaks, prepareRunLogsDir, recordSecretsIn, recordSecretsOfEnv } from "@svc/testing";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "svc-leak-scan-"));
  prepareRunLogsDir(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (folder: "logs" | "secrets", name: string, lines: string[]) => writeFileSync(path.join(dir, folder, name), `${lines.join("\n")}\n`);

describe("findLeaks", () => {
  it("finds a recorded secret in any log file, naming file and line but only the secret's start", () => {
    write("secrets", "1.txt", ["svc_sk_AAAAbbbbCCCCddddEEEEffff", "whsec_c2VjcmV0LXNlY3JldA=="]);
    write("secrets", "2.txt", ["blue-harbor-17"]);
    write("logs", "service-1.log", ['{"msg":"request completed"}', '{"msg":"auth","key":"Bearer svc_sk_AAAAbbbbCCCCddddEEEEffff"}']);
    write("logs", "service-2.log", ['{"msg":"share opened with blue-harbor-17"}']);
    const leaks = findLeaks(dir);
    expect(leaks).toEqual(
      expect.arrayContaining([
        { file: path.join("logs", "service-1.log"), line: 2, secretStart: "svc_sk…" },
        { file: path.join("logs", "service-2.log"), line: 1, secretStart: "blue-h…" },
      ]),
    );
    expect(leaks).toHaveLength(2);
    expect(JSON.stringify(leaks)).not.toContain("AAAAbbbb");
  });

  it("finds nothing in clean logs, ignores values too short or too uniform to be secrets, and allows the bootstrap key's one-time line", () => {
    write("secrets", "1.txt", ["svc_sk_bootstrapbootstrap", "short", "", "x".repeat(65)]);
    write("logs", "service-1.log", [
      '{"msg":"Bootstrap tenant created. Its API key, shown only this once: svc_sk_bootstrapbootstrap"}',
      '{"msg":"short answer"}',
      `{"req":{"id":"${"x".repeat(128)}"}}`,
    ]);
    expect(findLeaks(dir)).toEqual([]);
  });
});

describe("recording", () => {
  it("records secrets of JSON bodies and environments into this run's folder", () => {
    const before = secretsOfRun();
    recordSecretsIn({
      api_key: "svc_sk_recorded-by-test-0001",
      data: [{ secret: "whsec_recorded-by-test-0002", token_type: "bearer-not-a-secret" }],
      keys: { CLIENT_ID: "client-id-not-a-secret", CLIENT_SECRET: "client-secret-by-test-0003" },
      url: "https://svc.example.com/connect/connect-token-by-test-0004",
      authorize_url: "https://provider.example.com/authorize?client_id=x&state=state-by-test-0005",
    });
    recordSecretsOfEnv({ SVC_ENCRYPTION_KEY: "encryption-key-by-test-0006", SVC_ZETA_CLIENT_ID: "zeta-client-not-secret" });
    const added = secretsOfRun().filter((value) => !before.includes(value));
    expect(added.sort()).toEqual(
      [
        "svc_sk_recorded-by-test-0001",
        "whsec_recorded-by-test-0002",
        "client-secret-by-test-0003",
        "connect-token-by-test-0004",
        "state-by-test-0005",
        "encryption-key-by-test-0006",
      ].sort(),
    );
  });
});

function secretsOfRun(): string[] {
  const folder = path.join(inject("runLogsDir"), "secrets");
  return readdirSync(folder).flatMap((name) => readFileSync(path.join(folder, name), "utf8").split("\n")).filter(Boolean);
}
