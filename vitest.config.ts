import { defineConfig } from "vitest/config";

// One run for every test of the workspace: units (*.test.ts), integration tests on the
// embedded PostgreSQL (*.integration.test.ts) and black-box HTTP tests (test/http/).
export default defineConfig({
  test: {
    include: ["{apps,packages,tooling}/*/{src,test}/**/*.test.ts", "tooling/*/test/**/*.test.ts"],
    globalSetup: ["packages/testing/src/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at a time: they mostly wait on PostgreSQL, child processes and the browser, and
    // vitest's default (one fewer than the cores) ran one file at a time on a 2-core machine.
    maxWorkers: 2,
    env: { REDOCLY_TELEMETRY: "off" },
  },
});
