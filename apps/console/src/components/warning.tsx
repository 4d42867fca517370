import { Alert, type AlertProps } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * A yellow notice (a consequence to read before acting, a key shown once). The title uses the
 * text colour: yellow text on the light yellow background falls short of WCAG AA contrast.
 */
export function WarningAlert({ title, children, ...props }: { title: ReactNode; children: ReactNode } & Omit<AlertProps, "title" | "color">) {
  return (
    <Alert color="yellow" title={title} styles={{ title: { color: "var(--mantine-color-text)" } }} {...props}>
      {children}
    </Alert>
  );
}
