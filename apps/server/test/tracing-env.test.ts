import { describe, expect, it } from "vitest";
import { readEnv } from "../src/env.ts";
import { tracingWanted } from "../src/tracing.ts";

const wanted = (variables: Record<string, string>) => tracingWanted(readEnv(variables));

describe("tracing is on only when OTEL_* name where spans go", () => {
  it("is off by default", () => {
    expect(wanted({})).toBe(false);
  });

  it("is on with an OTLP endpoint or a traces exporter", () => {
    expect(wanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(wanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(true);
    expect(wanted({ OTEL_TRACES_EXPORTER: "otlp" })).toBe(true);
    expect(wanted({ OTEL_TRACES_EXPORTER: "console" })).toBe(true);
  });

  it("is off when the SDK is disabled or the traces exporter is none", () => {
    expect(wanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" })).toBe(false);
    expect(wanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: " TRUE " })).toBe(false);
    expect(wanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_TRACES_EXPORTER: "none" })).toBe(false);
    expect(wanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "false" })).toBe(true);
  });
});
