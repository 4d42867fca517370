import { Button, Code, CopyButton, Group, Text } from "@mantine/core";

/** A value to register or store elsewhere (a URL, a key shown once), with a copy button named after it. */
export function CopyValue({ label, value }: { label: string; value: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="center">
      <Code style={{ wordBreak: "break-all" }}>{value}</Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button size="compact-sm" variant="default" onClick={copy} aria-label={`Copy ${label}`}>
            {copied ? "Copied" : "Copy"}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/** A labelled value to copy, the label above it: for the addresses to register at a provider. */
export function LabelledCopyValue({ label, value, copyLabel = label }: { label: string; value: string | null; copyLabel?: string }) {
  return (
    <div>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      {value ? (
        <CopyValue label={copyLabel} value={value} />
      ) : (
        <Text size="sm" c="dimmed">
          None
        </Text>
      )}
    </div>
  );
}
