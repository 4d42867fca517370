import { describe, expect, it } from "vitest";
import { fromExternalIdColumns, toExternalIdColumns } from "../src/records/samples/external-id-columns.ts";

const UPPER = "E5F1C2A3-0B1C-4D2E-8F3A-9B8C7D6E5F40";
const LOWER = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0ff";
const DIGITS = "12345678-1234-4234-8234-123456789012";

describe("a chunk's provider ids in two columns", () => {
  it("keeps UUIDs in the chunk's case as uuids and reads every id back as sent", () => {
    const ids = [UPPER, null, LOWER, DIGITS, "S17", UPPER.replace("E5", "A5"), "{" + LOWER + "}", UPPER.toLowerCase().replace("e5", "E5")];
    const columns = toExternalIdColumns(ids);
    expect(columns.lowercase).toBe(false);
    expect(columns.uuids).toEqual([UPPER.toLowerCase(), null, null, DIGITS, null, UPPER.replace("E5", "A5").toLowerCase(), null, null]);
    expect(columns.texts).toEqual([null, null, LOWER, null, "S17", null, "{" + LOWER + "}", UPPER.toLowerCase().replace("e5", "E5")]);
    expect(fromExternalIdColumns(columns, ids.length)).toEqual(ids);
  });

  it("takes the case most UUIDs have, and leaves a column null when it has no id", () => {
    const lower = toExternalIdColumns([LOWER, LOWER.replace("0f", "1f"), UPPER, null]);
    expect(lower).toEqual({ lowercase: true, uuids: [LOWER, LOWER.replace("0f", "1f"), null, null], texts: [null, null, UPPER, null] });
    expect(toExternalIdColumns(["a", null])).toEqual({ lowercase: false, uuids: null, texts: ["a", null] });
    expect(toExternalIdColumns([null, null])).toEqual({ lowercase: false, uuids: null, texts: null });
    expect(fromExternalIdColumns({ lowercase: false, uuids: null, texts: null }, 2)).toEqual([null, null]);
  });
});
