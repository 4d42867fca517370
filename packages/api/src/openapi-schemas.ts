type Schema = { $ref?: string; type?: unknown; properties?: Record<string, unknown>; required?: string[] };
type Content = Record<string, { schema?: Schema }>;
type Operation = {
  operationId?: string;
  requestBody?: { required?: boolean; content?: Content };
  responses?: Record<string, { content?: Content }>;
};
type Document = { paths?: Record<string, unknown>; components?: { schemas?: Record<string, unknown> } };

const SCHEMAS = "#/components/schemas/";
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/**
 * The schemas of a generated document, finished for client generators: a JSON body that `{}`
 * satisfies is optional (the server reads an empty body as `{}`); a request or answer body
 * still written inline is named after its operation, `<Operation>Request` and
 * `<Operation>Response` (operationId `users-createUser` -> `CreateUserRequest`), so no
 * generator has to invent a name for it; schemas nothing refers to are dropped (the
 * generator's error schemas, which the Problem answers replace); an answer's `XOutput` is
 * named `X` (outputNames); the rest sorted by name.
 */
export function finishSchemas(document: Document): void {
  const components = (document.components ??= {});
  const schemas = components.schemas ?? {};
  for (const operation of operationsOf(document)) {
    if (operation.requestBody) operation.requestBody.required = !acceptsEmptyObject(operation.requestBody.content);
  }
  for (const operation of operationsOf(document)) {
    const name = operationName(operation);
    nameInline(schemas, operation.requestBody?.content, `${name}Request`);
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (status.startsWith("2")) nameInline(schemas, response.content, `${name}Response`);
    }
  }
  const used = usedSchemas(document, schemas);
  const names = outputNames(used);
  const kept = Object.keys(schemas).filter((name) => used.has(name));
  components.schemas = Object.fromEntries(kept.map((name) => [names.get(name) ?? name, schemas[name]]).sort(([a], [b]) => String(a).localeCompare(String(b))));
  renameReferences(document, names);
}

/**
 * zod-openapi writes a named schema that another named schema refers to twice, as it reads
 * in requests (`X`) and in answers (`XOutput`), even when no request uses it. Where only the
 * answers' is used, it takes the name as given: `XOutput` -> `X`.
 */
function outputNames(used: Set<string>): Map<string, string> {
  const names = new Map<string, string>();
  for (const name of used) {
    const given = name.replace(/Output$/, "");
    if (given !== name && !used.has(given)) names.set(name, given);
  }
  return names;
}

function renameReferences(value: unknown, names: Map<string, string>): void {
  if (value === null || typeof value !== "object") return;
  const node = value as Record<string, unknown>;
  const ref = node.$ref;
  if (typeof ref === "string" && ref.startsWith(SCHEMAS)) {
    const renamed = names.get(ref.slice(SCHEMAS.length));
    if (renamed) node.$ref = `${SCHEMAS}${renamed}`;
  }
  for (const child of Object.values(node)) renameReferences(child, names);
}

function* operationsOf(document: Document): Generator<Operation> {
  for (const item of Object.values(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) if (METHODS.has(method)) yield operation;
  }
}

/** `users-createUser` -> `CreateUser`; `ingest-apple-health` -> `IngestAppleHealth`. */
function operationName(operation: Operation): string {
  const id = operation.operationId ?? "";
  const [router, procedure] = id.split(/-(.*)/s);
  const words = procedure && /^[a-z][A-Za-z]*$/.test(procedure) ? [procedure] : [router, ...(procedure ?? "").split("-")];
  return words
    .filter((word): word is string => Boolean(word))
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

/** Whether every JSON body of the content is an object schema without required properties. */
function acceptsEmptyObject(content: Content | undefined): boolean {
  const schemas = Object.entries(content ?? {})
    .filter(([type]) => type === "application/json")
    .map(([, media]) => media.schema);
  return schemas.length > 0 && schemas.every((schema) => schema?.type === "object" && (schema.required ?? []).length === 0);
}

/** Moves each inline object schema of the content into components under the name, leaving a $ref. */
function nameInline(schemas: Record<string, unknown>, content: Content | undefined, name: string): void {
  for (const media of Object.values(content ?? {})) {
    const schema = media.schema;
    if (!schema || schema.$ref || (schema.type !== "object" && !schema.properties)) continue;
    const existing = schemas[name];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(schema)) {
      throw new Error(`Two different bodies would both be named ${name}: name one in openapi-components.ts`);
    }
    schemas[name] = schema;
    media.schema = { $ref: `${SCHEMAS}${name}` };
  }
}

/** Names of the schemas the paths (and webhooks) refer to, directly or through other schemas. */
function usedSchemas(document: Document, schemas: Record<string, unknown>): Set<string> {
  const { components, ...rest } = document;
  const { schemas: _, ...otherComponents } = components ?? {};
  const used = new Set<string>();
  const pending = referencesIn({ rest, otherComponents });
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (used.has(name)) continue;
    used.add(name);
    pending.push(...referencesIn(schemas[name]));
  }
  return used;
}

function referencesIn(value: unknown): string[] {
  const text = JSON.stringify(value ?? null);
  return [...text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((match) => decodeURIComponent(match[1] as string));
}
