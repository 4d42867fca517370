import { Badge } from "@mantine/core";
import type { ReactNode } from "react";

type Tone = "green" | "blue" | "yellow" | "orange" | "red" | "gray";

/** The tone of each status word; an unknown word is gray. */
const TONES: Record<string, Tone> = {
  active: "green",
  healthy: "green",
  done: "green",
  succeeded: "green",
  enabled: "green",
  built_in: "blue",
  queued: "blue",
  pending: "blue",
  running: "blue",
  not_configured: "yellow",
  retrying: "yellow",
  rate_limited: "yellow",
  paused: "yellow",
  needs_reauth: "orange",
  deleting: "orange",
  partly_revoked: "orange",
  unavailable: "orange",
  available: "green",
  granted: "green",
  revoked: "red",
  expired: "gray",
  failing: "orange",
  error: "red",
  parked: "red",
  failed: "red",
  broken: "red",
  off: "gray",
  not_set: "gray",
  disabled: "gray",
  disconnected: "gray",
  cancelled: "gray",
};

/**
 * The one badge look: the light shade of a tone with dark text (autoContrast), which keeps WCAG AA
 * contrast at badge size for every tone (white on the filled shades stays under 4.5:1).
 */
function ToneBadge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    // The label is never cut to an ellipsis (the word carries the meaning): a narrow table column grows instead.
    <Badge color={`${tone}.2`} variant="filled" autoContrast styles={{ label: { overflow: "visible" } }}>
      {children}
    </Badge>
  );
}

/** A status word as a badge, e.g. a provider's (active, built_in, not_configured…) or a delivery's (pending, parked…); the word carries the meaning, not the colour. */
export function StatusBadge({ status }: { status: string }) {
  return <ToneBadge tone={TONES[status] ?? "gray"}>{status.replace(/_/g, " ")}</ToneBadge>;
}

/** Yes/no as a badge, e.g. whether a provider is available to a tenant. */
export function YesNoBadge({ value, yes = "Yes", no = "No" }: { value: boolean; yes?: string; no?: string }) {
  return <ToneBadge tone={value ? "green" : "gray"}>{value ? yes : no}</ToneBadge>;
}
