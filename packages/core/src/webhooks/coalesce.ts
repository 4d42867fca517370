/**
 * Calls made in the same turn of the event loop run as one call of `runMany` with all their
 * inputs, in order; each caller gets the result at its own index, or the error of the call.
 * The deliveries a worker fetched together start (and often finish) in the same turn: their
 * claims and records then cost one statement instead of one each.
 */
export function coalesce<I, O>(runMany: (inputs: I[]) => Promise<O[]>): (input: I) => Promise<O> {
  let pending: Array<{ input: I; resolve: (output: O) => void; reject: (error: unknown) => void }> = [];
  const flush = () => {
    const calls = pending;
    pending = [];
    runMany(calls.map((call) => call.input)).then(
      (outputs) => calls.forEach((call, index) => call.resolve(outputs[index]!)),
      (error: unknown) => calls.forEach((call) => call.reject(error)),
    );
  };
  return (input) =>
    new Promise<O>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ input, resolve, reject });
    });
}
