import addFormats from "ajv-formats";
import { OpenAPIBackend } from "openapi-backend";
import { parse } from "yaml";

/** An answer as received: `text` is the body as sent, when the caller kept it. */
export interface ContractAnswer {
  status: number;
  headers: Headers;
  body: unknown;
  text?: string;
}

/**
 * Checks real answers against the served /openapi.yaml: status documented for the
 * operation, body valid against its schema, problem answers as application/problem+json,
 * and a 204 without Content-Type or body.
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

  /**
   * `template` names the operation (e.g. `/v1/users/{id}`) when the caller knows it, so that no
   * answer escapes the check by a path that matches no template; otherwise the path is matched,
   * and a path of no documented route is not checked.
   */
  check(method: string, path: string, result: ContractAnswer, template?: string): void {
    const operation = template
      ? this.api.getOperations().find((o) => o.method === method.toLowerCase() && o.path === template)
      : this.api.matchOperation({ method, path: path.split("?")[0]!, headers: {} });
    if (!operation) {
      if (template) throw new Error(`${method} ${template} is not an operation of /openapi.yaml`);
      return; // not a documented route: nothing to check against
    }
    const documented = Object.keys(operation.responses ?? {});
    if (!documented.includes(String(result.status))) {
      throw new Error(`${method} ${path} answered ${result.status}; /openapi.yaml documents ${documented.join(", ")}`);
    }
    if (result.status === 204) {
      const type = result.headers.get("content-type");
      if (type !== null) throw new Error(`${method} ${path}: 204 answered with Content-Type ${type}`);
      if (result.text !== undefined && result.text !== "") throw new Error(`${method} ${path}: 204 answered a body`);
      return; // no body, so no schema to validate against
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
