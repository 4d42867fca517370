// A strict reader of Prometheus's text exposition format (version 0.0.4), as a scraper reads
// it: every line must be a HELP, a TYPE, a comment or a sample of the family declared last;
// a family is declared once; a histogram's buckets are cumulative and end at +Inf = _count.
// It throws on the first line that breaks a rule.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/;
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\["\\n])*)"(?:,|$)/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  let current: Family | undefined;
  const lines = text.split("\n");
  if (lines.at(-1) !== "") throw new Error("the text does not end with a line feed");
  for (const [index, line] of lines.slice(0, -1).entries()) {
    const fail = (why: string) => new Error(`line ${index + 1} (${why}): ${line}`);
    const declaration = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (declaration) {
      const [, kind, name, rest] = declaration as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw fail("metric name");
      if (current?.name !== name) {
        if (families.has(name)) throw fail("family declared twice");
        current = { name, help: "", type: "untyped", samples: [] };
        families.set(name, current);
      }
      if (kind === "HELP") current.help = rest;
      else if (!TYPES.has(rest) || current.samples.length > 0) throw fail("TYPE");
      else current.type = rest;
      continue;
    }
    if (line.startsWith("#") || line === "") continue;
    const match = SAMPLE.exec(line);
    if (!match) throw fail("sample syntax");
    const [, name, labelText, valueText] = match as unknown as [string, string, string | undefined, string];
    if (current === undefined || !belongsTo(name, current)) throw fail("sample outside its family");
    const value = parseValue(valueText);
    if (value === undefined) throw fail("value");
    current.samples.push({ name, labels: parseLabels(labelText ?? "", fail), value });
  }
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

/** The samples of `family` whose labels include `labels`. */
export function samplesOf(family: Family | undefined, name: string, labels: Record<string, string> = {}): Sample[] {
  return (family?.samples ?? []).filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
}

/** A float as Prometheus (Go's ParseFloat) reads it: NaN and Inf in any case, as prom-client writes NaN ("Nan"). */
function parseValue(text: string): number | undefined {
  const special = text.toLowerCase();
  if (special === "nan") return NaN;
  if (special === "+inf" || special === "inf") return Infinity;
  if (special === "-inf") return -Infinity;
  const value = Number(text);
  return Number.isNaN(value) || text.trim() === "" ? undefined : value;
}

function belongsTo(name: string, family: Family): boolean {
  if (family.type === "histogram") return [`${family.name}_bucket`, `${family.name}_sum`, `${family.name}_count`].includes(name);
  if (family.type === "summary") return [family.name, `${family.name}_sum`, `${family.name}_count`].includes(name);
  return name === family.name;
}

function parseLabels(text: string, fail: (why: string) => Error): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest !== "") {
    const match = LABEL.exec(rest);
    if (!match) throw fail("labels");
    const [whole, name, value] = match as unknown as [string, string, string];
    if (name in labels) throw fail("label twice");
    labels[name] = value.replace(/\\(["\\n])/g, (_, escaped: string) => (escaped === "n" ? "\n" : escaped));
    rest = rest.slice(whole.length);
  }
  return labels;
}

function checkHistogram(family: Family): void {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>();
  for (const sample of family.samples) {
    const { le, ...labels } = sample.labels;
    const key = JSON.stringify(Object.entries(labels).sort());
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (sample.name.endsWith("_bucket")) {
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      entry.buckets.push([le === "+Inf" ? Infinity : Number(le), sample.value]);
    } else if (sample.name.endsWith("_count")) entry.count = sample.value;
  }
  for (const [key, { buckets, count }] of series) {
    const counts = buckets.map(([, value]) => value);
    if (buckets.at(-1)?.[0] !== Infinity || counts.at(-1) !== count) throw new Error(`${family.name} ${key}: the +Inf bucket is not the count`);
    if (counts.some((value, index) => index > 0 && value < counts[index - 1]!)) throw new Error(`${family.name} ${key}: buckets not cumulative`);
  }
}
