import { buildOpenApiDocument } from "./openapi.ts";

/**
 * The OpenAPI document as the server serves it at /openapi.yaml, and as docs/reference/openapi.yaml
 * holds it (written by `npm run docs:openapi`). yaml is imported here, at the first call: most
 * processes never serve the document.
 */
export async function openApiYaml(baseUrl: string): Promise<string> {
  const { stringify } = await import("./yaml-stringify.ts");
  return stringify(buildOpenApiDocument(baseUrl), { aliasDuplicateObjects: false });
}
