import { SimpleGrid, Text, type SimpleGridProps } from "@mantine/core";
import type { ReactNode } from "react";

/** Labelled values as a description list (dt and dd), in a grid: the fields of a run, a delivery, an endpoint. */
export function FieldList({ fields, cols = 2 }: { fields: Array<[label: string, value: ReactNode]>; cols?: SimpleGridProps["cols"] }) {
  return (
    <SimpleGrid cols={cols} spacing="xs" component="dl" m={0}>
      {fields.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" size="xs" c="dimmed">
            {label}
          </Text>
          <Text component="dd" m={0} size="sm">
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}
