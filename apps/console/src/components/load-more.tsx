import { Button, Group, Text } from "@mantine/core";

/** The footer of a paged table: how many rows are shown, and "Load more" while the list has a next page. */
export function LoadMore({
  shown,
  noun,
  query,
}: {
  shown: number;
  /** What the rows are, in the plural: "users", "deliveries". */
  noun: string;
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}) {
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed" aria-live="polite">
        {query.hasNextPage ? `First ${shown} ${noun} shown` : `All ${shown} ${noun} shown`}
      </Text>
      {query.hasNextPage && (
        <Button variant="default" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
          Load more
        </Button>
      )}
    </Group>
  );
}
