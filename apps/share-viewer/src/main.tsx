import "@mantine/core/styles.css";
import "@mantine/charts/styles.css";
import { MantineProvider, Text } from "@mantine/core";
import { cssVariablesResolver, theme } from "@svc/console/theme";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");
createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <Text>Shared health data.</Text>
    </MantineProvider>
  </StrictMode>,
);
