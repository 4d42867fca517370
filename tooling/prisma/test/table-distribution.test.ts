import { readFileSync } from "node:fs";
import path from "node:path";
import { findRepoRoot } from "@svc/db";
import { connectSql, createTestDatabase } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { findDistributionProblems } from "../distribution-check.ts";
import { TABLE_DISTRIBUTION } from "../table-distribution.ts";

async function sql(url: string, text: string): Promise<void> {
  const client = await connectSql(url);
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** The tables of docs/deployment.md's "Distributing on Citus", with the text of their placement column. */
function documentedPlacements(): Map<string, string> {
  const doc = readFileSync(path.join(findRepoRoot(), "docs", "deployment.md"), "utf8");
  const section = doc.split(/^## /m).find((part) => part.startsWith("Distributing on Citus")) ?? "";
  const rows = new Map<string, string>();
  for (const match of section.matchAll(/^\| `([a-z_]+)` \| ([^|]+) \|/gm)) rows.set(match[1]!, match[2]!.trim());
  return rows;
}

const DOC_WORDS = { by_user: "distributed", reference: "reference", coordinator: "coordinator" } as const;

describe("keys by user (the path onto Citus)", () => {
  it("every table is classified, and each table of user data holds user_id in its primary, unique and foreign keys", async () => {
    // The template database of the test run has every committed migration applied.
    const problems = await findDistributionProblems(await createTestDatabase());
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("names a table of user data whose unique key lacks user_id, and a table nobody classified", async () => {
    const url = await createTestDatabase();
    await sql(url, `CREATE UNIQUE INDEX "sleep_sessions_external_id_key" ON "sleep_sessions" ("external_id")`);
    await sql(url, `CREATE TABLE "step_minutes" ("user_id" UUID NOT NULL, "minute" TIMESTAMPTZ NOT NULL, PRIMARY KEY ("minute"))`);
    await sql(url, `ALTER TABLE "hrv_results" DROP CONSTRAINT "hrv_results_user_id_series_id_fkey",
      ADD FOREIGN KEY ("user_id", "series_id") REFERENCES "heartbeat_series" ("user_id", "id") ON UPDATE CASCADE`);
    const problems = await findDistributionProblems(url);
    expect(problems).toContainEqual("sleep_sessions: unique index sleep_sessions_external_id_key (external_id) lacks user_id");
    expect(problems).toContainEqual(expect.stringMatching(/^step_minutes: not classified/));
    expect(problems).toContainEqual(expect.stringMatching(/^hrv_results: foreign key .* ON UPDATE CASCADE would change user_id/));
    expect(problems).toHaveLength(3);

    const classified = { ...TABLE_DISTRIBUTION, step_minutes: { kind: "by_user" } } as const;
    expect(await findDistributionProblems(url, classified)).toContainEqual("step_minutes: primary key step_minutes_pkey (minute) lacks user_id");
  });

  it("docs/deployment.md lists every table with its placement", () => {
    const documented = documentedPlacements();
    const expected = Object.entries(TABLE_DISTRIBUTION).map(([table, placement]) => [table, DOC_WORDS[placement.kind]] as const);
    const wrong = expected.filter(([table, word]) => !documented.get(table)?.toLowerCase().includes(word));
    expect(wrong.map(([table, word]) => `${table}: ${word}`)).toEqual([]);
    expect([...documented.keys()].filter((table) => !(table in TABLE_DISTRIBUTION))).toEqual([]);
  });
});
