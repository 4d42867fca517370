import { DataPointType } from "@opentelemetry/sdk-metrics";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { toMetricData } from "../src/metrics/otlp-metrics.ts";

const start: [number, number] = [1, 0];
const end: [number, number] = [2, 0];

async function converted(registry: Registry) {
  const metrics = (await registry.getMetricsAsJSON()) as unknown as Parameters<typeof toMetricData>[0][];
  return metrics.flatMap((metric) => toMetricData(metric, start, end));
}

describe("prom-client metrics as OpenTelemetry data", () => {
  it("turns a histogram's cumulative buckets into the count of each bucket, per set of labels", async () => {
    const registry = new Registry();
    const histogram = new Histogram({ name: "h_seconds", help: "h", labelNames: ["route"], buckets: [0.01, 0.1, 1], registers: [registry] });
    for (const value of [0.005, 0.05, 0.06, 5]) histogram.observe({ route: "/a" }, value);
    histogram.observe({ route: "/b" }, 0.5);

    const [metric] = await converted(registry);
    expect(metric).toMatchObject({ descriptor: { name: "h_seconds", description: "h" }, dataPointType: DataPointType.HISTOGRAM });
    expect(metric!.dataPoints).toEqual([
      { startTime: start, endTime: end, attributes: { route: "/a" }, value: { buckets: { boundaries: [0.01, 0.1, 1], counts: [1, 2, 0, 1] }, sum: 5.115, count: 4 } },
      { startTime: start, endTime: end, attributes: { route: "/b" }, value: { buckets: { boundaries: [0.01, 0.1, 1], counts: [0, 0, 1, 0] }, sum: 0.5, count: 1 } },
    ]);
  });

  it("turns counters into monotonic sums and gauges into gauges, label values as Prometheus has them", async () => {
    const registry = new Registry();
    new Counter({ name: "c_total", help: "c", labelNames: ["status"], registers: [registry] }).inc({ status: 200 }, 3);
    new Gauge({ name: "g", help: "g", registers: [registry] }).set(7);

    const [counter, gauge] = await converted(registry);
    expect(counter).toMatchObject({ dataPointType: DataPointType.SUM, isMonotonic: true, dataPoints: [{ attributes: { status: "200" }, value: 3 }] });
    expect(gauge).toMatchObject({ dataPointType: DataPointType.GAUGE, dataPoints: [{ attributes: {}, value: 7 }] });
  });
});
