import { appRouter, type ApiContext } from "@svc/api";
import type { AnyProcedure } from "@trpc/server";
import { z } from "zod";

type Routers = typeof appRouter._def.record;

/** A procedure's path in the router, e.g. `samples.listSamples`. */
export type ProcedurePath = { [R in keyof Routers & string]: `${R}.${keyof Routers[R] & string}` }[keyof Routers & string];

/** The procedure at `path`, found by walking the router's flat record of procedures. */
function procedureAt(path: ProcedurePath): AnyProcedure {
  const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure | undefined>;
  const procedure = procedures[path];
  if (!procedure) throw new Error(`No procedure ${path} in the router`);
  return procedure;
}

/** The zod object a procedure validates its input with (the REST query and path parameters). */
export function procedureInput(path: ProcedurePath): z.ZodObject {
  const [input] = procedureAt(path)._def.inputs as unknown[];
  if (!(input instanceof z.ZodObject)) throw new Error(`Procedure ${path} has no object input`);
  return input;
}

/** The zod object a procedure's answer is checked with (its REST response body). */
export function procedureOutput(path: ProcedurePath): z.ZodObject {
  const output = (procedureAt(path)._def as { output?: unknown }).output;
  if (!(output instanceof z.ZodObject)) throw new Error(`Procedure ${path} has no object output`);
  return output;
}

/**
 * The zod object of one item of the array `field` of a procedure's answer: by default the
 * records of a REST list page `{data, next_cursor}`.
 */
export function procedureItem(path: ProcedurePath, field = "data"): z.ZodObject {
  const items = procedureOutput(path).shape[field];
  const item = items instanceof z.ZodArray ? items.element : undefined;
  if (!(item instanceof z.ZodObject)) throw new Error(`Procedure ${path} answers no array of objects in ${field}`);
  return item;
}

/** The OpenAPI description of a procedure, reused in the tool's description. */
export function procedureDescription(path: ProcedurePath): string {
  const meta = procedureAt(path)._def.meta as { openapi?: { description?: string } } | undefined;
  return meta?.openapi?.description ?? "";
}

type CallerNode = ((input: unknown) => Promise<unknown>) & { [key: string]: CallerNode };

/**
 * Runs the procedure at `path` through tRPC's server-side caller with the REST context, so
 * authentication, validation and the output schema are exactly the REST route's.
 */
export function callProcedure(ctx: ApiContext, path: ProcedurePath, input: Record<string, unknown>): Promise<unknown> {
  const caller = appRouter.createCaller(ctx) as unknown as CallerNode;
  const procedure = path.split(".").reduce((node, key) => node[key]!, caller);
  return procedure(input);
}
