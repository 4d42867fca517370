import { describe, expect, it } from "vitest";
import { CreatedAtCursor, decodeCursor, encodeCursor, toPage } from "../src/platform/cursor.ts";

describe("cursors", () => {
  const position = { t: "2026-03-01T10:00:00.000Z", id: "0b6f3f8e-8e9a-4a40-9d52-2a4a6d2a1b11" };

  it("round-trips an opaque cursor", () => {
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, CreatedAtCursor)).toEqual(position);
  });

  it.each(["not-a-cursor", encodeCursor({ t: "x", id: "y" }), encodeCursor({ ...position, extra: 1 }), "%%%"])(
    "refuses a tampered cursor %j with a 400",
    (cursor) => {
      expect(() => decodeCursor(cursor, CreatedAtCursor)).toThrow(expect.objectContaining({ status: 400 }));
    },
  );

  it("pages: a next cursor only when more rows exist", () => {
    const rows = [1, 2, 3];
    expect(toPage(rows, 2, (n) => n, (n) => ({ n }))).toEqual({ data: [1, 2], next_cursor: encodeCursor({ n: 2 }) });
    expect(toPage(rows, 3, (n) => n, (n) => ({ n }))).toEqual({ data: [1, 2, 3], next_cursor: null });
  });
});
