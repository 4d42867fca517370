import { describe, expect, it } from "vitest";
import { coalesce } from "../src/webhooks/coalesce.ts";

describe("coalesce", () => {
  it("runs the calls of one turn as one call, in order, and each caller gets its own result", async () => {
    const calls: number[][] = [];
    const double = coalesce(async (inputs: number[]) => {
      calls.push(inputs);
      return inputs.map((input) => input * 2);
    });
    const firstTurn = await Promise.all([double(1), double(2), double(3)]);
    const secondTurn = await double(4);
    expect(firstTurn).toEqual([2, 4, 6]);
    expect(secondTurn).toBe(8);
    expect(calls).toEqual([[1, 2, 3], [4]]);
  });

  it("rejects every caller of a call that failed, and runs the next turn's calls anew", async () => {
    let fail = true;
    const echo = coalesce(async (inputs: string[]) => {
      if (fail) throw new Error("statement failed");
      return inputs;
    });
    const results = await Promise.allSettled([echo("a"), echo("b")]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    expect(await echo("c")).toBe("c");
  });
});
