import { Loader, Progress, Stack, Text } from "@mantine/core";
import { formatBytes } from "../format.ts";
import type { OpeningStage } from "../link/open-share.ts";

/** What opening is doing, in words. */
function describe(stage: OpeningStage | null): string {
  if (stage === null) return "Asking the server for the shared file…";
  switch (stage.stage) {
    case "download":
      return stage.total === null
        ? `Downloading the shared file… ${formatBytes(stage.received)}`
        : `Downloading the shared file… ${formatBytes(stage.received)} of ${formatBytes(stage.total)}`;
    case "decrypt":
      return "Decrypting in this browser…";
    case "inflate":
      return "Decompressing…";
    case "read":
      return "Preparing the summary…";
  }
}

/** Which share of the work is done: the download is most of the wait, the rest follows. */
function percent(stage: OpeningStage | null): number | null {
  if (stage === null) return 0;
  switch (stage.stage) {
    case "download":
      return stage.total === null ? null : Math.min(80, Math.round((stage.received / stage.total) * 80));
    case "decrypt":
      return 85;
    case "inflate":
      return 90;
    case "read":
      return 95;
  }
}

/** The progress of opening a share: a bar (when the size is known) and a status line. */
export function OpeningProgress({ stage }: { stage: OpeningStage | null }) {
  const text = describe(stage);
  const value = percent(stage);
  return (
    <Stack align="center" gap="xs" py="xl" maw={480} mx="auto" w="100%">
      {value === null ? <Loader aria-hidden /> : <Progress value={value} w="100%" aria-label="Opening the share" animated />}
      <Text role="status" aria-live="polite">
        {text}
      </Text>
    </Stack>
  );
}
