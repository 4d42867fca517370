import { Alert, Button, Stack, Text } from "@mantine/core";
import { viewerZone } from "../bundle/days.ts";
import { formatDateTime } from "../format.ts";
import type { GoneReason } from "../link/manifest-client.ts";

const ASK_AGAIN = "Ask the person who shared it for a new link if you still need the data.";

/** The title and text of a share that cannot be opened, saying why where the server told. */
function goneText(why: GoneReason, expiredAt: number | null): { title: string; text: string } {
  if (why.status === "expired") {
    return { title: "This share has expired", text: `${expiredAt === null ? "The link expired." : `The link expired on ${formatDateTime(expiredAt, viewerZone())}.`} ${ASK_AGAIN}` };
  }
  if (why.status === "revoked") {
    const because =
      why.reason === "owner"
        ? "The person who shared it revoked the link."
        : why.reason === "passcode_attempts"
          ? "The link was revoked after too many wrong passcodes."
          : why.reason === "consent" || why.reason === "provider_erased"
            ? "The data it held was withdrawn, so the link was revoked."
            : "The link was revoked.";
    return { title: "This share was revoked", text: `${because} ${ASK_AGAIN}` };
  }
  return { title: "This share is no longer available", text: `It expired, was revoked by the person who shared it, or the link is wrong. ${ASK_AGAIN}` };
}

export type StatusKind = { kind: "invalid"; message: string } | { kind: "gone"; why: GoneReason; expiredAt: number | null } | { kind: "failed"; message: string };

/** A link that is not a share link, a share that cannot be opened (and why), or a failure to open one. */
export function StatusMessage({ status, onRetry }: { status: StatusKind; onRetry?: () => void }) {
  const { title, text } =
    status.kind === "gone"
      ? goneText(status.why, status.expiredAt)
      : status.kind === "invalid"
        ? { title: "This share link cannot be opened", text: status.message }
        : { title: "Something went wrong", text: status.message };
  return (
    <Alert role="alert" color="red" title={title} variant="light">
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
