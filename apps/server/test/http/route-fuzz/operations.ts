import { parse } from "yaml";

/** The parts of a JSON Schema the fuzzer reads (named schemas are read through their $ref). */
export interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** The path template, e.g. `/v1/users/{id}/tags`. */
  path: string;
  parameters: Parameter[];
  body: { contentTypes: string[]; schema: JsonSchema | undefined } | undefined;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Every operation (paths x methods) of the served /openapi.yaml. */
export async function loadOperations(documentUrl: string): Promise<Operation[]> {
  const document = parse(await (await fetch(documentUrl)).text()) as {
    paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema?: JsonSchema }> } }>>;
    components: { schemas: Record<string, unknown> };
  };
  const inline = (schema: unknown) => dereferenced(schema, document.components.schemas) as JsonSchema;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const content = operation.requestBody?.content;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters ?? []).map((p) => ({ name: p.name, in: p.in, required: p.required === true, schema: inline(p.schema ?? {}) })),
        body: content && { contentTypes: Object.keys(content), schema: inline(Object.values(content)[0]?.schema) },
      });
    }
  }
  return operations;
}

/** The schema with every `$ref` to a named schema replaced by that schema (the document's named schemas have no cycles). */
function dereferenced(schema: unknown, schemas: Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => dereferenced(item, schemas));
  if (schema === null || typeof schema !== "object") return schema;
  const { $ref, ...rest } = schema as { $ref?: string };
  const named = $ref === undefined ? {} : (dereferenced(schemas[$ref.replace("#/components/schemas/", "")], schemas) as object);
  return { ...named, ...Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, dereferenced(value, schemas)])) };
}
