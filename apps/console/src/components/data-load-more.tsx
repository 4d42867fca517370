import { Button, Group, Text } from "@mantine/core";

/** The footer of a paged table: how many rows are shown, and a button for the next page. */
export function DataLoadMore({
  shown,
  hasMore,
  loading,
  onLoadMore,
  noun,
}: {
  shown: number;
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
  noun: string;
}) {
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed" aria-live="polite">
        {hasMore ? `First ${shown} ${noun} shown` : `All ${shown} ${noun} shown`}
      </Text>
      {hasMore && (
        <Button variant="default" onClick={onLoadMore} loading={loading}>
          Load more
        </Button>
      )}
    </Group>
  );
}
