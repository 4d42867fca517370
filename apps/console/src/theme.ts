import { createTheme, type CSSVariablesResolver } from "@mantine/core";

/**
 * System fonts only (the console loads nothing from another origin), and shades chosen for
 * WCAG AA contrast: darker blue and dimmed text on light backgrounds, lighter on dark ones.
 */
export const theme = createTheme({
  primaryColor: "blue",
  primaryShade: { light: 8, dark: 4 },
  autoContrast: true,
  // Dialogs and drawers appear without animation for people who ask for less motion.
  respectReducedMotion: true,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  fontFamilyMonospace: 'ui-monospace, "SF Mono", Menlo, Consolas, monospace',
  defaultRadius: "md",
  components: {
    Anchor: { defaultProps: { underline: "always" } },
    // A table wider than a phone scrolls sideways: its scrolling area takes the keyboard focus,
    // so people without a pointer can scroll it too (axe: scrollable-region-focusable).
    TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } },
  },
});

export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { "--mantine-color-dimmed": t.colors.gray[7] ?? "#495057" },
  dark: { "--mantine-color-dimmed": t.colors.dark[1] ?? "#b8b8b8" },
});
