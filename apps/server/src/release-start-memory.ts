import vm from "node:vm";

/**
 * Lets V8 give back the memory the start grew and no longer needs. Starting svc grows V8's young
 * generation to its limit (2 x 64 MB on a machine with a large heap limit), and V8 returns it only
 * when its memory reducer runs, which nothing starts in a process that then idles. A disposed
 * context is what starts it: some 10 s later its garbage collections release the young generation
 * (api role at rest: about 250 -> 170 MB), with no `--max-semi-space-size` flag. Should V8 stop
 * reacting so, this costs a context and changes nothing.
 */
export function releaseStartMemory(): void {
  vm.runInNewContext("undefined");
}
