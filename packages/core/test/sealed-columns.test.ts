import { readFileSync } from "node:fs";
import { schemaPath } from "@svc/db";
import { expect, it } from "vitest";
import { SEALED_COLUMNS } from "../src/admin/sealed-column-repository.ts";

it("the key rotation's re-seal pass knows every sealed column of the schema", () => {
  const schema = readFileSync(schemaPath(), "utf8");
  const columns: string[] = [];
  let table = "";
  for (const line of schema.split("\n").reverse()) {
    // Walking upwards, a model's @@map comes before its fields.
    const mapped = /@@map\("([^"]+)"\)/.exec(line);
    if (mapped) table = mapped[1]!;
    const column = /@map\("([^"]*sealed[^"]*)"\)/.exec(line);
    if (column) columns.push(`${table}.${column[1]}`);
  }
  expect(columns.sort()).toEqual(SEALED_COLUMNS.map(({ table, column }) => `${table}.${column}`).sort());
});
