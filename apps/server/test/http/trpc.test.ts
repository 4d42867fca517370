import type { AppRouter } from "@svc/api";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

const clientWith = (secret: string) =>
  createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: `${svc.url}/trpc`, transformer: superjson, headers: { authorization: `Bearer ${secret}` } })],
  });

describe("/trpc for the admin console and the typed client", () => {
  it("serves the same procedures with superjson", async () => {
    const client = clientWith(key);
    const user = await client.users.createUser.mutate({ external_ref: "over-trpc" });
    expect(await client.users.getUser.query({ id: user.id })).toEqual(user);
    const page = await client.users.listUsers.query({ limit: 10 });
    expect(page.data.map((u) => u.id)).toContain(user.id);
  });

  it("carries the problem of an error in error.data.problem", async () => {
    const client = clientWith(key);
    const error = await client.users.getUser.query({ id: "5b0e1d1c-0000-4000-8000-000000000000" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({
      code: "NOT_FOUND",
      problem: { status: 404, title: "Not Found", type: "about:blank" },
    });
    const unauthorized = await clientWith("svc_sk_wrong").users.listUsers.query({}).catch((e: unknown) => e);
    expect((unauthorized as TRPCClientError<AppRouter>).data?.problem.status).toBe(401);
  });
});
