/**
 * What a person can report about themselves (POST /v1/users/{id}/self-reports): each kind
 * is stored as quantity samples of type `reported_<kind>` (unit `score`) and takes whole
 * numbers from `min` to `max`. The labels name the anchors of the scale.
 */
export interface SelfReportKind {
  kind: string;
  min: number;
  max: number;
  /** The scale's name, for the API description. */
  scale: string;
  /** Anchor labels by value (every value for the 1–5 scales, the ends and named steps for 0–10). */
  labels: Readonly<Record<number, string>>;
}

export const SELF_REPORT_KIND_NAMES = [
  "feeling",
  "mood",
  "stress",
  "energy",
  "sleep_quality",
  "muscle_soreness",
  "session_effort",
  "pain",
] as const;

export type SelfReportKindName = (typeof SELF_REPORT_KIND_NAMES)[number];

const likert = (labels: [string, string, string, string, string]) => ({
  min: 1,
  max: 5,
  scale: "5-point Likert scale",
  labels: { 1: labels[0], 2: labels[1], 3: labels[2], 4: labels[3], 5: labels[4] },
});

export const SELF_REPORT_KINDS: Readonly<Record<SelfReportKindName, SelfReportKind>> = {
  feeling: { kind: "feeling", ...likert(["very bad", "bad", "okay", "good", "very good"]) },
  mood: { kind: "mood", ...likert(["very unpleasant", "unpleasant", "neutral", "pleasant", "very pleasant"]) },
  stress: { kind: "stress", ...likert(["not stressed", "slightly stressed", "moderately stressed", "very stressed", "extremely stressed"]) },
  energy: { kind: "energy", ...likert(["exhausted", "low", "moderate", "high", "very high"]) },
  sleep_quality: { kind: "sleep_quality", ...likert(["very poor", "poor", "fair", "good", "very good"]) },
  muscle_soreness: {
    kind: "muscle_soreness",
    min: 0,
    max: 10,
    scale: "numeric rating scale",
    labels: { 0: "no soreness", 5: "moderate soreness", 10: "worst soreness imaginable" },
  },
  session_effort: {
    kind: "session_effort",
    min: 0,
    max: 10,
    scale: "Borg CR-10 scale of session RPE",
    labels: { 0: "rest", 1: "very, very easy", 2: "easy", 3: "moderate", 4: "somewhat hard", 5: "hard", 7: "very hard", 10: "maximal" },
  },
  pain: {
    kind: "pain",
    min: 0,
    max: 10,
    scale: "numeric rating scale (NRS)",
    labels: { 0: "no pain", 5: "moderate pain", 10: "worst pain imaginable" },
  },
};

/** The stored quantity type of a kind. */
export const selfReportType = (kind: SelfReportKindName): `reported_${SelfReportKindName}` => `reported_${kind}`;

export function isSelfReportKind(kind: string): kind is SelfReportKindName {
  return (SELF_REPORT_KIND_NAMES as readonly string[]).includes(kind);
}

/** One line per kind, e.g. "`feeling`: 1–5, 5-point Likert scale (1 very bad, …, 5 very good)". */
export function describeSelfReportScales(): string {
  return SELF_REPORT_KIND_NAMES.map((name) => {
    const kind = SELF_REPORT_KINDS[name];
    const labels = Object.entries(kind.labels).map(([value, label]) => `${value} ${label}`).join(", ");
    return `- \`${name}\` (type \`${selfReportType(name)}\`): ${kind.min}–${kind.max}, ${kind.scale} (${labels})`;
  }).join("\n");
}
