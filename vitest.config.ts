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
    env: { REDOCLY_TELEMETRY: "off" },
  },
});
