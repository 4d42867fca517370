/** The RFC 9457 body of every svc error answer. detail never holds a secret or a health value. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  request_id: string;
}

/** A REST call that did not succeed, thrown by `unwrap`. */
export class SvcError extends Error {
  override name = "SvcError";
  readonly status: number;
  readonly problem: Problem | undefined;

  constructor(status: number, problem: Problem | undefined) {
    super(problem ? `${status} ${problem.title}: ${problem.detail}` : `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/** What an openapi-fetch call resolves to. */
export interface RestResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a successful REST call; throws SvcError with the problem otherwise. */
export async function unwrap<T>(call: RestResult<T> | Promise<RestResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) throw new SvcError(response.status, isProblem(error) ? error : undefined);
  return data as T;
}

/**
 * The problem behind an error of either client (SvcError, or the TRPCClientError of the
 * workspace's tRPC client, recognised by its name so this entry needs no @trpc/client);
 * undefined for others.
 */
export function problemOf(error: unknown): Problem | undefined {
  if (error instanceof SvcError) return error.problem;
  if (error instanceof Error && error.name === "TRPCClientError") {
    const problem = (error as { data?: { problem?: unknown } | null }).data?.problem;
    return isProblem(problem) ? problem : undefined;
  }
  return undefined;
}

function isProblem(value: unknown): value is Problem {
  return typeof value === "object" && value !== null && typeof (value as Problem).status === "number" && typeof (value as Problem).title === "string";
}
