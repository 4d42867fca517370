import { Alert, Button, Stack, Text } from "@mantine/core";

const TITLES = {
  invalid: "This share link cannot be opened",
  gone: "This share is no longer available",
  failed: "Something went wrong",
} as const;

/** A link that is not a share link, a share that is no longer available, or a failure to open one. */
export function StatusMessage({ kind, message, onRetry }: { kind: keyof typeof TITLES; message?: string; onRetry?: () => void }) {
  const text =
    message ??
    (kind === "gone"
      ? "It expired, was revoked by the person who shared it, or the link is wrong. Ask them for a new link."
      : "Check that you copied the whole link.");
  return (
    <Alert role="alert" color="red" title={TITLES[kind]} variant="light">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{text}</Text>
        {onRetry && (
          <Button variant="default" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
