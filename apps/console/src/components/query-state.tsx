import { Alert, Center, Loader } from "@mantine/core";
import type { ReactNode } from "react";
import { problemOf } from "../trpc.ts";

/** The problem of a failed call, as an alert (title and detail of the server's RFC 9457 answer). */
export function ProblemAlert({ error, title }: { error: unknown; title?: string }) {
  const problem = problemOf(error);
  return (
    <Alert color="red" role="alert" title={title ?? problem.title}>
      {problem.detail ?? problem.title}
    </Alert>
  );
}

/** Shows a loader while a query loads, its problem when it failed, else the children. */
export function QueryState({ query, children }: { query: { isPending: boolean; error: unknown }; children: () => ReactNode }) {
  if (query.error) return <ProblemAlert error={query.error} />;
  if (query.isPending)
    return (
      <Center p="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  return <>{children()}</>;
}
