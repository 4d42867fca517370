import { describe, expect, it } from "vitest";
import { readEnv } from "../src/env.ts";
import { otlpMetricsWanted, tracingWanted } from "../src/tracing.ts";

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

describe("metrics go over OTLP too only with tracing on and an OTLP endpoint for them", () => {
  const otlp = (variables: Record<string, string>) => otlpMetricsWanted(readEnv(variables));

  it("follows tracing and its OTLP endpoint", () => {
    expect(otlp({})).toBe(false);
    expect(otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" })).toBe(false);
    expect(otlp({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(false);
    expect(otlp({ OTEL_TRACES_EXPORTER: "console" })).toBe(false);
    expect(otlp({ OTEL_TRACES_EXPORTER: "console", OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://collector:4318/v1/metrics" })).toBe(true);
  });

  it("is off when OTEL_METRICS_EXPORTER does not list otlp", () => {
    expect(otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_METRICS_EXPORTER: "none" })).toBe(false);
    expect(otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_METRICS_EXPORTER: "prometheus" })).toBe(false);
    expect(otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_METRICS_EXPORTER: "console, otlp" })).toBe(true);
  });
});
