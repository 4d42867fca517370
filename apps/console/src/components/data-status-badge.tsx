import { Badge } from "@mantine/core";

const COLORS: Record<string, string> = {
  active: "green",
  healthy: "green",
  done: "green",
  succeeded: "green",
  enabled: "green",
  queued: "blue",
  pending: "blue",
  running: "blue",
  retrying: "yellow",
  rate_limited: "yellow",
  needs_reauth: "orange",
  failing: "orange",
  paused: "yellow",
  parked: "red",
  failed: "red",
  broken: "red",
  disabled: "gray",
  disconnected: "gray",
  cancelled: "gray",
};

/**
 * A status word as a coloured badge (the word itself carries the meaning, not the colour).
 * Light shades with dark text (autoContrast): white on the filled shades stays under 4.5:1.
 */
export function DataStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={`${COLORS[status] ?? "gray"}.2`} variant="filled" autoContrast>
      {status.replace(/_/g, " ")}
    </Badge>
  );
}
