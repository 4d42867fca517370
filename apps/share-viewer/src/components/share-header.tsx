import { Stack, Text, Title } from "@mantine/core";
import { viewerZone } from "../bundle/days.ts";
import { formatDateTime } from "../format.ts";
import type { ShlinkPayload } from "../link/shlink.ts";

/**
 * The page's heading: the link's label (as the person who shared it wrote it) and, while the
 * share may still open, until when the link is valid (never once it is known to be revoked
 * or expired).
 */
export function ShareHeader({ link, showExpiry }: { link: ShlinkPayload | null; showExpiry: boolean }) {
  return (
    <Stack gap={4} component="header">
      <Title order={1}>Shared health data</Title>
      {link?.label && (
        <Text size="lg" fw={600}>
          {link.label}
        </Text>
      )}
      {showExpiry && link?.exp != null && <Text c="dimmed">Link valid until {formatDateTime(link.exp * 1000, viewerZone())}</Text>}
      <Text c="dimmed" size="sm">
        The data is decrypted in this browser; the link's key is never sent to the server.
      </Text>
    </Stack>
  );
}
