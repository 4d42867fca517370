import { spawn } from "node:child_process";
import { once } from "node:events";
import { pathToFileURL } from "node:url";
import path from "node:path";
import { describe, expect, it } from "vitest";

const LOGGER = pathToFileURL(path.resolve(import.meta.dirname, "../src/logger.ts")).href;
const LINES = 2000;

/**
 * A process that logs LINES lines of about 1 kB through the default logger (2 MB: far more
 * than a pipe holds), says "returned" on stderr, then logs "last" and exits or crashes.
 */
const script = (end: "exit" | "crash") => `
import { createLogger } from ${JSON.stringify(LOGGER)};
const logger = createLogger("info");
for (let i = 0; i < ${LINES}; i++) logger.info({ i, pad: "x".repeat(1000) }, "line");
process.stderr.write("returned\\n");
setTimeout(() => {
  logger.info("last");
  ${end === "crash" ? 'throw new Error("crash");' : "process.exit(0);"}
}, 50);
`;

/** Runs the script with nobody reading its stdout until it said "returned" (or 10 s passed). */
async function run(end: "exit" | "crash") {
  const child = spawn(process.execPath, ["--input-type=module", "--eval", script(end)], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.pause();
  let stderr = "";
  const returned = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 10_000);
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes("returned")) {
        clearTimeout(timer);
        resolve(true);
      }
    });
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString())).resume();
  // "close": the process ended and its output was read to the end.
  const [code] = (await once(child, "close")) as [number | null];
  const messages = stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
  return { returned, code, messages };
}

describe("the default logger", () => {
  it("does not hold up its caller while stdout is slow, and writes every line before the process exits", async () => {
    const { returned, code, messages } = await run("exit");
    expect(returned).toBe(true);
    expect(code).toBe(0);
    expect(messages).toHaveLength(LINES + 1);
    expect(messages.at(-1)).toBe("last");
  });

  it("writes every line before a crash ends the process", async () => {
    const { code, messages } = await run("crash");
    expect(code).toBe(1);
    expect(messages).toHaveLength(LINES + 1);
    expect(messages.at(-1)).toBe("last");
  });
});
