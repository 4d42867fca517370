// Runs the sh blocks of a guide the way a reader does: in order, in one bash, so variables set
// by one block (BASE_URL, KEY, USER_ID, TOKEN …) are there for the next; `set -euo pipefail`
// stops at the first failing command. A marker printed after each block splits what each one
// wrote to stdout and stderr.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { GuideBlock } from "./guide-blocks.ts";

export interface BlockRun {
  /** The guide's sh block. */
  block: Extract<GuideBlock, { kind: "run" }>;
  /** What it wrote to stdout, exactly. */
  stdout: string;
  stderr: string;
}

export interface GuideRun {
  /** The blocks that ran to their end, in order. */
  completed: BlockRun[];
  /** The block that failed (or was still running at the timeout), with what it wrote so far. */
  failed: BlockRun | null;
  /** bash's exit code (null when killed at the timeout). */
  exitCode: number | null;
  timedOut: boolean;
}

const MARK = "@@svc-guide-block-end";

/**
 * Runs the guide's sh blocks with bash in `workDir` (its file= blocks written there first).
 * `env` is the whole environment bash gets. Kills bash and its children after `timeoutMs`.
 */
export async function runGuide(blocks: readonly GuideBlock[], options: { workDir: string; scriptDir: string; env: Record<string, string>; timeoutMs: number }): Promise<GuideRun> {
  for (const block of blocks) if (block.kind === "file") writeFileSync(path.join(options.workDir, block.name), block.content);
  const runs = blocks.filter((block) => block.kind === "run");
  const script = [
    "set -euo pipefail",
    `__guide_mark() { printf '\\n${MARK} %s@@\\n' "$1"; printf '\\n${MARK} %s@@\\n' "$1" >&2; }`,
    ...runs.flatMap((run, i) => [`# guide line ${run.block.line}`, run.block.value, `__guide_mark ${i}`]),
    "",
  ].join("\n");
  const scriptFile = path.join(options.scriptDir, "guide.sh");
  writeFileSync(scriptFile, script);

  const child = spawn("bash", [scriptFile], { cwd: options.workDir, env: options.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    // The whole process group: bash and whatever it is waiting for (curl, sleep).
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // It ended meanwhile.
    }
  }, options.timeoutMs);
  const exitCode = await new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  clearTimeout(timer);

  const outs = split(stdout);
  const errs = split(stderr);
  const completed = runs.slice(0, outs.done.length).map((block, i) => ({ block, stdout: outs.done[i] ?? "", stderr: errs.done[i] ?? "" }));
  const next = runs[outs.done.length];
  const failed = exitCode === 0 && !timedOut ? null : next ? { block: next, stdout: outs.rest, stderr: errs.rest } : null;
  return { completed, failed, exitCode, timedOut };
}

/** The text of each finished block (between markers), and what followed the last marker. */
function split(text: string): { done: string[]; rest: string } {
  const done: string[] = [];
  const pattern = new RegExp(`\\n${MARK} (\\d+)@@\\n`, "g");
  let from = 0;
  for (const match of text.matchAll(pattern)) {
    done.push(text.slice(from, match.index));
    from = match.index + match[0].length;
  }
  return { done, rest: text.slice(from) };
}
