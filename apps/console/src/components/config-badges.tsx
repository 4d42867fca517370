import { Badge } from "@mantine/core";

/** Fixed dark shades: white on them keeps WCAG AA contrast at badge size (yellow gets dark text). */
const STATUS_COLORS: Record<string, string> = {
  active: "teal.9",
  built_in: "blue.9",
  off: "gray.7",
  not_configured: "yellow",
  not_set: "gray.7",
  error: "red.9",
};

const STATUS_LABELS: Record<string, string> = {
  active: "Active",
  built_in: "Built in",
  off: "Off",
  not_configured: "Not configured",
  not_set: "Not set",
  error: "Error",
};

/** A provider's or keys' status (active, off, not_configured, error, built_in, not_set). */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={STATUS_COLORS[status] ?? "gray.7"} variant="filled" autoContrast>
      {STATUS_LABELS[status] ?? status}
    </Badge>
  );
}

/** Yes/no as a badge, e.g. whether a provider is available to a tenant. */
export function YesNoBadge({ value, yes = "Yes", no = "No" }: { value: boolean; yes?: string; no?: string }) {
  return (
    <Badge color={value ? "teal.9" : "gray.7"} variant="filled" autoContrast>
      {value ? yes : no}
    </Badge>
  );
}
