import { ValueType, type Attributes, type HrTime } from "@opentelemetry/api";
import { emptyResource } from "@opentelemetry/resources";
import {
  AggregationTemporality,
  DataPointType,
  PeriodicExportingMetricReader,
  type CollectionResult,
  type DataPoint,
  type Histogram,
  type MetricData,
  type MetricProducer,
  type PushMetricExporter,
} from "@opentelemetry/sdk-metrics";
import type { Env } from "../env.ts";
import type { ProcessMetrics } from "./process-metrics.ts";

/**
 * The reader that exports the process's metrics over OTLP, every OTEL_METRIC_EXPORT_INTERVAL,
 * with the exporter of OTEL_EXPORTER_OTLP_METRICS_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL
 * (http/protobuf by default, as for spans); the exporter reads its endpoint and headers from
 * OTEL_* itself. The series are the ones of GET /metrics, converted as they are collected.
 */
export async function otlpMetricReader(env: Env, metrics: ProcessMetrics): Promise<PeriodicExportingMetricReader> {
  const protocol = env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf";
  return new PeriodicExportingMetricReader({
    exporter: await otlpMetricExporter(protocol.trim()),
    exportIntervalMillis: env.OTEL_METRIC_EXPORT_INTERVAL,
    metricProducers: [prometheusProducer(metrics)],
  });
}

async function otlpMetricExporter(protocol: string): Promise<PushMetricExporter> {
  if (protocol === "grpc") return new (await import("@opentelemetry/exporter-metrics-otlp-grpc")).OTLPMetricExporter();
  if (protocol === "http/json") return new (await import("@opentelemetry/exporter-metrics-otlp-http")).OTLPMetricExporter();
  return new (await import("@opentelemetry/exporter-metrics-otlp-proto")).OTLPMetricExporter();
}

/** Hands the SDK's reader the prom-client metrics as OpenTelemetry data: cumulative, since the process started. */
function prometheusProducer(metrics: ProcessMetrics): MetricProducer {
  const startTime = hrTimeOf(Date.now());
  return {
    async collect(): Promise<CollectionResult> {
      const collected = (await (await metrics.collect()).getMetricsAsJSON()) as unknown as PromMetric[];
      const endTime = hrTimeOf(Date.now());
      return {
        resourceMetrics: {
          resource: emptyResource(), // the reader keeps the SDK's resource (service.name, …)
          scopeMetrics: [{ scope: { name: "svc" }, metrics: collected.flatMap((metric) => toMetricData(metric, startTime, endTime)) }],
        },
        errors: [],
      };
    },
  };
}

/**
 * One metric of prom-client's JSON as it is at run time: prom-client's typings give `type` as
 * a numeric enum, but it is "counter", "gauge", "histogram" or "summary".
 */
interface PromMetric {
  name: string;
  help: string;
  type: string;
  values: Array<{ value: number; labels: Attributes; metricName?: string }>;
}

/** Counters become monotonic sums, gauges gauges, histograms histograms; summaries (svc has none) are left out. */
export function toMetricData(metric: PromMetric, startTime: HrTime, endTime: HrTime): MetricData[] {
  const descriptor = { name: metric.name, description: metric.help, unit: "", valueType: ValueType.DOUBLE };
  const aggregationTemporality = AggregationTemporality.CUMULATIVE;
  // Label values as Prometheus has them (strings), so a query is written alike for both.
  const point = <T>(labels: Attributes, value: T): DataPoint<T> => ({ startTime, endTime, attributes: stringValues(labels), value });
  const numbers = metric.values.map(({ labels, value }) => point(labels, value));
  switch (metric.type) {
    case "counter":
      return [{ descriptor, aggregationTemporality, dataPointType: DataPointType.SUM, isMonotonic: true, dataPoints: numbers }];
    case "gauge":
      return [{ descriptor, aggregationTemporality, dataPointType: DataPointType.GAUGE, dataPoints: numbers }];
    case "histogram":
      return [{ descriptor, aggregationTemporality, dataPointType: DataPointType.HISTOGRAM, dataPoints: histogramPoints(metric, point) }];
    default:
      return [];
  }
}

/**
 * prom-client lists a histogram as one value per cumulative bucket (label `le`), then `_sum`
 * and `_count`, for each set of labels; OpenTelemetry wants per set of labels the finite
 * boundaries and the count of each bucket alone (one more for above the last boundary).
 */
function histogramPoints(metric: PromMetric, point: <T>(attributes: Attributes, value: T) => DataPoint<T>): Array<DataPoint<Histogram>> {
  const series = new Map<string, { attributes: Attributes; buckets: Array<[number, number]>; sum: number; count: number }>();
  for (const { labels, value, metricName } of metric.values) {
    const { le, ...attributes } = labels;
    const key = JSON.stringify(attributes);
    let entry = series.get(key);
    if (entry === undefined) {
      entry = { attributes, buckets: [], sum: 0, count: 0 };
      series.set(key, entry);
    }
    if (metricName === `${metric.name}_bucket` && le !== "+Inf") entry.buckets.push([Number(le), value]);
    else if (metricName === `${metric.name}_sum`) entry.sum = value;
    else if (metricName === `${metric.name}_count`) entry.count = value;
  }
  return [...series.values()].map(({ attributes, buckets, sum, count }) => {
    buckets.sort(([a], [b]) => a - b);
    const cumulative = [...buckets.map(([, below]) => below), count];
    const counts = cumulative.map((below, index) => below - (index === 0 ? 0 : cumulative[index - 1]!));
    return point(attributes, { buckets: { boundaries: buckets.map(([boundary]) => boundary), counts }, sum, count });
  });
}

function stringValues(labels: Attributes): Attributes {
  return Object.fromEntries(Object.entries(labels).map(([name, value]) => [name, String(value)]));
}

function hrTimeOf(epochMs: number): HrTime {
  return [Math.floor(epochMs / 1000), (epochMs % 1000) * 1_000_000];
}
