import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { appRouter, buildOpenApiDocument } from "@svc/api";
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from "openapi-typescript";

type CoreModule = { EVENT_CATALOG: Record<string, { data: unknown }> };
type ZodModule = { toJSONSchema(schema: unknown, options?: { io?: "input" | "output" }): Record<string, unknown> };
type Operation = { parameters?: Array<{ in?: string; name?: string }> };

/** The text of every file under src/generated/, by file name. */
export async function generatedFiles(): Promise<Record<string, string>> {
  const document = buildOpenApiDocument("/");
  return {
    "openapi.ts": await typesOf(document as OpenAPI3),
    "events.ts": await typesOf(await eventDocument()),
    "idempotent-operations.ts": idempotentOperations(document),
  };
}

async function typesOf(document: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document, { alphabetize: false, exportType: false });
  return COMMENT_HEADER + astToString(ast);
}

/**
 * The event catalog's data schemas as components.schemas, keyed by event type. The client
 * depends on @svc/api only, so @svc/core (and its zod) are resolved from where @svc/api is.
 */
async function eventDocument(): Promise<OpenAPI3> {
  const fromApi = createRequire(import.meta.resolve("@svc/api"));
  const corePath = fromApi.resolve("@svc/core");
  const core = (await import(pathToFileURL(corePath).href)) as CoreModule;
  const zod = (await import(pathToFileURL(createRequire(corePath).resolve("zod")).href)) as ZodModule;
  const schemas: Record<string, unknown> = {};
  for (const [type, event] of Object.entries(core.EVENT_CATALOG)) {
    const { $schema: _, ...schema } = zod.toJSONSchema(event.data, { io: "output" });
    schemas[type] = schema;
  }
  return { openapi: "3.1.0", info: { title: "svc events", version: "0.1.0" }, paths: {}, components: { schemas } } as OpenAPI3;
}

/**
 * POST operations that honour Idempotency-Key (the document lists the header on them), by
 * REST path template and, for routes of the router, by tRPC procedure path. The client
 * adds a key to these and retries only these among POSTs.
 */
function idempotentOperations(document: ReturnType<typeof buildOpenApiDocument>): string {
  const rest: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const post = (item as { post?: Operation }).post;
    if (post?.parameters?.some((p) => p.in === "header" && p.name?.toLowerCase() === "idempotency-key")) rest.push(path);
  }
  const trpc: string[] = [];
  type ProcedureDef = { _def: { meta?: { openapi?: { method: string; path: string } } } };
  for (const [name, procedure] of Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureDef>)) {
    const openapi = procedure._def.meta?.openapi;
    if (openapi?.method === "POST" && rest.includes(openapi.path)) trpc.push(name);
  }
  const list = (values: string[]) => values.sort().map((value) => `  ${JSON.stringify(value)},\n`).join("");
  return `${COMMENT_HEADER.replace("openapi-typescript", "scripts/generate-openapi-types.ts")}/** POST routes that take Idempotency-Key, as path templates. */
export const IDEMPOTENT_REST_POSTS = [
${list(rest)}] as const;

/** tRPC mutations that take Idempotency-Key. */
export const IDEMPOTENT_TRPC_MUTATIONS = [
${list(trpc)}] as const;
`;
}
