import addFormats from "ajv-formats";
import { OpenAPIBackend } from "openapi-backend";
import { parse } from "yaml";

/**
 * Checks real answers against the served /openapi.yaml: status documented for the
 * operation, body valid against its schema, and problem answers as application/problem+json.
 */
export class ContractChecker {
  private readonly api: OpenAPIBackend;

  private constructor(api: OpenAPIBackend) {
    this.api = api;
  }

  static async load(documentUrl: string): Promise<ContractChecker> {
    const definition = parse(await (await fetch(documentUrl)).text());
    const api = new OpenAPIBackend({
      definition,
      strict: true,
      // quick skips openapi-backend's own check of the document, which knows OpenAPI 3.0
      // only; @redocly/openapi-core validates the 3.1 document in openapi.test.ts.
      quick: true,
      validate: true,
      customizeAjv: (ajv) => {
        addFormats.default(ajv);
        return ajv;
      },
    });
    await api.init();
    return new ContractChecker(api);
  }

  check(method: string, path: string, result: { status: number; headers: Headers; body: unknown }): void {
    const operation = this.api.matchOperation({ method, path: path.split("?")[0]!, headers: {} });
    if (!operation) return; // not a documented route: nothing to check against
    const documented = Object.keys(operation.responses ?? {});
    if (!documented.includes(String(result.status))) {
      throw new Error(`${method} ${path} answered ${result.status}; /openapi.yaml documents ${documented.join(", ")}`);
    }
    if (result.status >= 400) {
      const type = result.headers.get("content-type") ?? "";
      if (!type.startsWith("application/problem+json")) throw new Error(`${method} ${path}: error answered as ${type}`);
    }
    const validation = this.api.validateResponse(result.body, operation, result.status);
    if (validation.errors?.length) {
      throw new Error(`${method} ${path} ${result.status} does not match /openapi.yaml: ${JSON.stringify(validation.errors)}`);
    }
  }
}
