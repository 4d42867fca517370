// The catalog of category sample types: samples whose value is one of a fixed set of
// snake_case values (HealthKit category types, Health Connect enumerated records).

import type { MetricGroup } from "./quantity-types.ts";

export interface CategoryType {
  name: string;
  group: MetricGroup;
  values: readonly string[] | null; // null: free text
  description: string;
}

// Events that carry no value of their own (HealthKit's "not applicable").
const EVENT = ["not_applicable"] as const;
const SEVERITY = ["unspecified", "not_present", "mild", "moderate", "severe"] as const;
const PRESENCE = ["present", "not_present"] as const;

export const CATEGORY_TYPES: readonly CategoryType[] = [
  // Cycle tracking.
  {
    name: "menstrual_flow",
    group: "cycle",
    values: ["unspecified", "light", "medium", "heavy", "none"],
    description: "Menstrual flow on a day or over an interval.",
  },
  {
    name: "menstruation_period",
    group: "cycle",
    values: EVENT,
    description: "A menstruation period, as an interval.",
  },
  {
    name: "intermenstrual_bleeding",
    group: "cycle",
    values: EVENT,
    description: "Spotting or bleeding outside the menstrual period.",
  },
  {
    name: "ovulation_test_result",
    group: "cycle",
    values: ["negative", "positive", "high", "inconclusive"],
    description:
      "Result of an ovulation test: positive is a luteinizing hormone surge, high an estrogen surge.",
  },
  {
    name: "cervical_mucus_quality",
    group: "cycle",
    values: ["dry", "sticky", "creamy", "watery", "egg_white", "unusual"],
    description: "Quality of cervical mucus.",
  },
  {
    name: "sexual_activity",
    group: "cycle",
    values: ["unspecified", "protected", "unprotected"],
    description: "Sexual activity, and whether protection was used.",
  },
  {
    name: "contraceptive",
    group: "cycle",
    values: ["unspecified", "implant", "injection", "intrauterine_device", "intravaginal_ring", "oral", "patch"],
    description: "Contraceptive in use.",
  },
  {
    name: "pregnancy_test_result",
    group: "cycle",
    values: ["negative", "positive", "inconclusive"],
    description: "Result of a home pregnancy test.",
  },
  {
    name: "progesterone_test_result",
    group: "cycle",
    values: ["negative", "positive", "inconclusive"],
    description: "Result of a home progesterone test.",
  },
  {
    name: "pregnancy",
    group: "cycle",
    values: EVENT,
    description: "A pregnancy, as an interval.",
  },
  {
    name: "lactation",
    group: "cycle",
    values: EVENT,
    description: "A lactation period, as an interval.",
  },

  // Mindfulness.
  {
    name: "mindful_session",
    group: "mindfulness",
    values: ["unspecified", "meditation", "breathing", "music", "movement", "unguided"],
    description: "A mindfulness session and its kind when known.",
  },

  // Heart notifications.
  {
    name: "high_heart_rate_event",
    group: "heart",
    values: EVENT,
    description: "Heart rate above the notification threshold while inactive.",
  },
  {
    name: "low_heart_rate_event",
    group: "heart",
    values: EVENT,
    description: "Heart rate below the notification threshold.",
  },
  {
    name: "irregular_heart_rhythm_event",
    group: "heart",
    values: EVENT,
    description: "An irregular rhythm suggestive of atrial fibrillation was detected.",
  },
  {
    name: "low_cardio_fitness_event",
    group: "heart",
    values: EVENT,
    description: "Cardio fitness (VO2max) fell into the low range.",
  },

  // Activity, mobility and hygiene.
  {
    name: "apple_stand_hour",
    group: "activity",
    values: ["stood", "idle"],
    description: "Whether the person stood and moved for at least a minute in an hour.",
  },
  {
    name: "walking_steadiness_event",
    group: "activity",
    values: ["initial_low", "initial_very_low", "repeat_low", "repeat_very_low"],
    description: "Walking steadiness fell into a low range.",
  },
  {
    name: "toothbrushing_event",
    group: "activity",
    values: EVENT,
    description: "A toothbrushing session.",
  },
  {
    name: "handwashing_event",
    group: "activity",
    values: EVENT,
    description: "A handwashing session.",
  },

  // Hearing.
  {
    name: "environmental_audio_exposure_event",
    group: "vitals",
    values: EVENT,
    description: "Surrounding sound was loud enough, long enough, to risk hearing.",
  },
  {
    name: "headphone_audio_exposure_event",
    group: "vitals",
    values: EVENT,
    description: "Headphone sound was loud enough, long enough, to risk hearing.",
  },

  // Sleep.
  {
    name: "sleep_apnea_event",
    group: "sleep",
    values: EVENT,
    description: "Signs of sleep apnea over recent nights.",
  },

  // Symptoms, as logged by the person.
  {
    name: "headache",
    group: "reported",
    values: SEVERITY,
    description: "Headache, with its severity.",
  },
  {
    name: "abdominal_cramps",
    group: "reported",
    values: SEVERITY,
    description: "Abdominal cramps, with their severity.",
  },
  {
    name: "bloating",
    group: "reported",
    values: SEVERITY,
    description: "Bloating, with its severity.",
  },
  {
    name: "chest_tightness_or_pain",
    group: "reported",
    values: SEVERITY,
    description: "Chest tightness or pain, with its severity.",
  },
  {
    name: "coughing",
    group: "reported",
    values: SEVERITY,
    description: "Coughing, with its severity.",
  },
  {
    name: "diarrhea",
    group: "reported",
    values: SEVERITY,
    description: "Diarrhea, with its severity.",
  },
  {
    name: "dizziness",
    group: "reported",
    values: SEVERITY,
    description: "Dizziness, with its severity.",
  },
  {
    name: "fatigue",
    group: "reported",
    values: SEVERITY,
    description: "Fatigue, with its severity.",
  },
  {
    name: "fever",
    group: "reported",
    values: SEVERITY,
    description: "Fever, with its severity.",
  },
  {
    name: "hot_flashes",
    group: "reported",
    values: SEVERITY,
    description: "Hot flashes, with their severity.",
  },
  {
    name: "lower_back_pain",
    group: "reported",
    values: SEVERITY,
    description: "Lower back pain, with its severity.",
  },
  {
    name: "nausea",
    group: "reported",
    values: SEVERITY,
    description: "Nausea, with its severity.",
  },
  {
    name: "shortness_of_breath",
    group: "reported",
    values: SEVERITY,
    description: "Shortness of breath, with its severity.",
  },
  {
    name: "sore_throat",
    group: "reported",
    values: SEVERITY,
    description: "Sore throat, with its severity.",
  },
  {
    name: "vomiting",
    group: "reported",
    values: SEVERITY,
    description: "Vomiting, with its severity.",
  },
  {
    name: "appetite_changes",
    group: "reported",
    values: ["unspecified", "no_change", "decreased", "increased"],
    description: "Change in appetite.",
  },
  {
    name: "mood_changes",
    group: "reported",
    values: PRESENCE,
    description: "Whether mood changes were noticed.",
  },
  {
    name: "sleep_changes",
    group: "reported",
    values: PRESENCE,
    description: "Whether changes in sleep were noticed.",
  },
];

const BY_NAME = new Map(CATEGORY_TYPES.map((type) => [type.name, type]));

export function findCategoryType(name: string): CategoryType | undefined {
  return BY_NAME.get(name);
}
