import {
  BUILTIN_SOURCE_ORDERS,
  CATEGORY_TYPES,
  MATCH_WINDOW_SECONDS,
  QUANTITY_TYPES,
  RECORD_METRICS,
  SELF_REPORT_KINDS,
  TIME_TAG_KIND_DESCRIPTIONS,
} from "@svc/core";

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
const code = (text: string) => `\`${text}\``;

const MATCH_RULES: Record<string, string> = {
  counts: "the intervals overlap",
  sessions: "they share at least half of the shorter one",
  other: "the intervals overlap",
};

function matchRule(kind: string): string {
  const window = (MATCH_WINDOW_SECONDS as Record<string, number | undefined>)[kind];
  if (window === undefined) return MATCH_RULES[kind] ?? "the intervals overlap";
  return window >= 3600 ? `starts within ${window / 3600} h` : `starts within ${window / 60} min`;
}

/**
 * docs/reference/catalog.md: the record types svc stores, with units and codes, the kinds
 * of self reports and time tags, and the merged view's built-in source orders, all read from
 * packages/core, so the page cannot disagree with the code.
 */
export function catalogPage(notice: string): string {
  const lines = [
    "# Catalog of record types",
    "",
    `${notice} The values come from \`packages/core/src/records\`.`,
    "[Units](units.md) explains the unit spellings; [the merged view](merged-view.md) how the orders",
    "and match rules below are used.",
    "",
    "## Quantity types",
    "",
    "A quantity sample's `value` is in the type's storage unit (`unit`); `ucum_unit` is the same unit",
    "in UCUM, as FHIR answers carry it. Merge kind decides when two samples match in the merged view;",
    "aggregation whether a day's figure is a sum (`cumulative`) or an average (`discrete`).",
    "",
  ];
  const groups = [...new Set(QUANTITY_TYPES.map((type) => type.group))];
  for (const group of groups) {
    lines.push(`### Group ${group}`, "", "| Type | Unit | UCUM | LOINC | Merge kind | Aggregation | Meaning |", "| --- | --- | --- | --- | --- | --- | --- |");
    for (const type of QUANTITY_TYPES.filter((t) => t.group === group)) {
      lines.push(
        `| ${code(type.name)} | ${code(type.unit)} | ${code(type.ucum_unit)} | ${type.loinc_code ?? ""} | ${type.merge_kind} | ${type.aggregation} | ${cell(type.description)} |`,
      );
    }
    lines.push("");
  }
  lines.push(
    "## Category types",
    "",
    "A category sample's `value` is one of the listed values (free text of 1 to 64 characters where",
    "none are listed). Category samples match in the merged view when their intervals overlap; each",
    "type is ranked on its own.",
    "",
    "| Type | Group | Values | Meaning |",
    "| --- | --- | --- | --- |",
  );
  for (const type of CATEGORY_TYPES) {
    lines.push(`| ${code(type.name)} | ${type.group} | ${type.values ? type.values.map(code).join(", ") : "any text"} | ${cell(type.description)} |`);
  }
  lines.push(
    "",
    "## Self-report kinds",
    "",
    "`POST /v1/users/{id}/self-reports` stores each kind as quantity samples of type `reported_<kind>`",
    "(unit `score`), whole numbers only.",
    "",
    "| Kind | Range | Scale | Anchors |",
    "| --- | --- | --- | --- |",
  );
  for (const kind of Object.values(SELF_REPORT_KINDS)) {
    const anchors = Object.entries(kind.labels).map(([value, label]) => `${value} ${label}`).join("; ");
    lines.push(`| ${code(kind.kind)} | ${kind.min} to ${kind.max} | ${kind.scale} | ${cell(anchors)} |`);
  }
  lines.push("", "## Time tag kinds", "", "| Kind | Marks |", "| --- | --- |");
  for (const [kind, description] of Object.entries(TIME_TAG_KIND_DESCRIPTIONS)) lines.push(`| ${code(kind)} | ${cell(description)} |`);
  lines.push(
    "",
    "## Record metrics",
    "",
    "Records that are not samples are ranked as one metric each, whatever their kind or activity type.",
    "",
    "| Metric | Group | Match when |",
    "| --- | --- | --- |",
  );
  for (const [metric, { group, kind }] of Object.entries(RECORD_METRICS)) {
    // Daily summaries are merged per date: one summary of a date is kept.
    lines.push(`| ${code(metric)} | ${group} | ${metric === "daily_summary" ? "they are of the same date" : matchRule(kind)} |`);
  }
  lines.push("", "## Match rules by merge kind", "", "| Merge kind | Two records match when |", "| --- | --- |");
  for (const kind of ["counts", "readings", "daily_figures", "body_measurements", "sessions", "other"]) lines.push(`| ${kind} | ${matchRule(kind)} |`);
  lines.push(
    "",
    "## Built-in source orders",
    "",
    "The last level of the merged view's ranking, per group, best first. Sources are vendor slugs,",
    "or the provider's slug where the vendor is unknown; a source not listed ranks after the listed ones.",
    "",
    "| Group | Order |",
    "| --- | --- |",
  );
  for (const [group, order] of Object.entries(BUILTIN_SOURCE_ORDERS)) lines.push(`| ${group} | ${order.length ? order.map(code).join(", ") : "(none)"} |`);
  lines.push("");
  return lines.join("\n");
}
