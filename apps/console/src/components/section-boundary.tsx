import { Alert, Button, Stack, Text } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ErrorBoundary, getErrorMessage, type FallbackProps } from "react-error-boundary";

/**
 * Keeps a render error inside one part of a page: the part shows what failed and a retry,
 * the rest of the console goes on working. "Try again" draws the part again from fresh
 * answers (a widget usually breaks on an answer it did not expect): while the part shows its
 * error, its queries have no observer, so dropping the inactive queries drops exactly its
 * answers and leaves the rest of the page as it is. `resetKeys` draw the part again by
 * themselves when they change (a new page, another type or window).
 */
export function SectionBoundary({ name, resetKeys, children }: { name: string; resetKeys?: unknown[]; children: ReactNode }) {
  const queryClient = useQueryClient();
  return (
    <ErrorBoundary
      resetKeys={resetKeys}
      onReset={(details) => {
        if (details.reason === "imperative-api") queryClient.removeQueries({ type: "inactive" });
      }}
      fallbackRender={(props) => <SectionFailed name={name} {...props} />}
    >
      {children}
    </ErrorBoundary>
  );
}

function SectionFailed({ name, error, resetErrorBoundary }: { name: string } & FallbackProps) {
  return (
    <Alert color="red" role="alert" title={`${name} could not be shown`}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">The rest of the page still works. {getErrorMessage(error) ?? "Unknown error."}</Text>
        <Button size="compact-sm" variant="default" onClick={() => resetErrorBoundary()}>
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}
