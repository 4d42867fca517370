import path from "node:path";
import { fileURLToPath } from "node:url";
import { cruise, type IViolation } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { describe, expect, it } from "vitest";
import { DOMAINS, domainRules, MAY_IMPORT } from "../domain-rules.ts";

const coreDir = fileURLToPath(new URL("..", import.meta.url));

/** Every import of packages/core/src against domain-rules.ts: one line per import that breaks a rule. */
async function violations(): Promise<string[]> {
  const previous = process.cwd();
  // dependency-cruiser reads paths relative to the working directory.
  process.chdir(coreDir);
  try {
    const tsConfigFile = path.join(coreDir, "tsconfig.json");
    const result = await cruise(
      ["src"],
      {
        validate: true,
        ruleSet: { forbidden: domainRules() },
        tsPreCompilationDeps: true,
        tsConfig: { fileName: tsConfigFile },
        doNotFollow: { path: ["node_modules", "^\\.\\./"] },
        enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "default"], extensions: [".ts", ".js"] },
      },
      { extensions: [".ts", ".js"] },
      { tsConfig: extractTSConfig(tsConfigFile) },
    );
    if (typeof result.output === "string") throw new Error("dependency-cruiser answered text, not a result");
    expect(result.output.summary.totalCruised).toBeGreaterThan(200);
    return result.output.summary.violations.map((v: IViolation) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (cycle ${v.cycle.map((c) => c.name).join(" -> ")})` : ""}`);
  } finally {
    process.chdir(previous);
  }
}

describe("packages/core domains", () => {
  it("import each other only through index.ts, in the allowed directions, with Prisma only in repositories", async () => {
    expect(await violations()).toEqual([]);
  }, 60_000);

  it("allow no cycle of domains", () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (domain: (typeof DOMAINS)[number], trail: string[]) => {
      if (done.has(domain)) return;
      expect(visiting.has(domain), `cycle: ${[...trail, domain].join(" -> ")}`).toBe(false);
      visiting.add(domain);
      for (const next of MAY_IMPORT[domain]) visit(next, [...trail, domain]);
      visiting.delete(domain);
      done.add(domain);
    };
    for (const domain of DOMAINS) visit(domain, []);
    expect(MAY_IMPORT.platform).toEqual([]);
  });
});
