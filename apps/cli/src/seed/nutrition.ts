// Cronometer (provider `cronometer`): what the person logged eating, 3-4 meals a day.

import type { NutritionLogRecord } from "@svc/core";
import type { DayPlan } from "./person.ts";
import { randomFor, round, type Random } from "./random.ts";
import type { ProviderDay } from "./records.ts";
import { localTime, MINUTE, SECOND, ZONE } from "./time.ts";

export const NUTRITION_PROVIDER = "cronometer";

const APP = { source: "cronometer", on_body: false, source_name: "Cronometer" } as const;

/** Per serving: grams of protein, carbohydrates, fat, fiber, sugar; mg sodium; mL water; mg caffeine. */
interface Food {
  name: string;
  p: number;
  c: number;
  f: number;
  fiber: number;
  sugar: number;
  sodium: number;
  water?: number;
  caffeine?: number;
}

const food = (name: string, p: number, c: number, f: number, fiber: number, sugar: number, sodium: number, extra: Partial<Food> = {}): Food => ({
  name,
  p,
  c,
  f,
  fiber,
  sugar,
  sodium,
  ...extra,
});

const BREAKFAST = [
  food("Oatmeal with milk", 12, 54, 9, 8, 14, 120),
  food("Greek yogurt with berries", 17, 20, 6, 3, 15, 70),
  food("Whole-grain bread with cheese", 16, 30, 14, 5, 3, 520),
  food("Scrambled eggs", 13, 2, 15, 0, 1, 340),
  food("Banana", 1.3, 27, 0.4, 3.1, 14, 1),
];
const COFFEE = food("Coffee with milk", 2, 3, 2, 0, 3, 30, { water: 250, caffeine: 95 });
const LUNCH = [
  food("Chicken salad", 35, 15, 18, 5, 6, 650),
  food("Lentil soup", 18, 45, 6, 15, 5, 780),
  food("Pasta with tomato sauce", 16, 85, 10, 6, 9, 600),
  food("Falafel wrap", 20, 70, 25, 10, 5, 950),
  food("Rice bowl with tofu", 24, 80, 16, 7, 6, 700),
];
const DINNER = [
  food("Salmon with potatoes and broccoli", 38, 45, 22, 7, 4, 450),
  food("Vegetable curry with rice", 15, 90, 20, 9, 10, 820),
  food("Spaghetti bolognese", 32, 85, 22, 7, 11, 780),
  food("Pizza margherita", 30, 100, 28, 5, 8, 1500),
  food("Chili con carne", 30, 45, 18, 12, 8, 900),
  food("Omelette with salad", 24, 8, 28, 3, 4, 600),
];
const SIDE_SALAD = food("Side salad", 2, 6, 7, 3, 3, 180);
const SNACK = [
  food("Apple", 0.5, 25, 0.3, 4.4, 19, 2),
  food("Almonds", 6, 6, 14, 3.5, 1.2, 0),
  food("Protein bar", 20, 22, 7, 5, 4, 180),
  food("Dark chocolate", 2, 12, 12, 3, 7, 5),
  food("Cappuccino", 4, 6, 4, 0, 6, 60, { water: 180, caffeine: 75 }),
];

function meal(r: Random, mealType: string, at: number, foods: readonly Food[]): NutritionLogRecord {
  const sum = { p: 0, c: 0, f: 0, fiber: 0, sugar: 0, sodium: 0, water: r.between(200, 450), caffeine: 0 };
  for (const item of foods) {
    const portion = r.between(1, 1.4);
    sum.p += item.p * portion;
    sum.c += item.c * portion;
    sum.f += item.f * portion;
    sum.fiber += item.fiber * portion;
    sum.sugar += item.sugar * portion;
    sum.sodium += item.sodium * portion;
    sum.water += item.water ?? 0;
    sum.caffeine += item.caffeine ?? 0;
  }
  const start = Math.round(at / SECOND) * SECOND;
  return {
    ...APP,
    start_date: new Date(start),
    end_date: new Date(start + r.int(10, 30) * MINUTE),
    meal_type: mealType,
    name: foods.map((item) => item.name).join(", "),
    energy_kcal: Math.round(4 * sum.p + 4 * sum.c + 9 * sum.f + 2 * sum.fiber),
    protein_grams: round(sum.p, 1),
    carbohydrates_grams: round(sum.c, 1),
    fat_grams: round(sum.f, 1),
    fiber_grams: round(sum.fiber, 1),
    sugar_grams: round(sum.sugar, 1),
    sodium_milligrams: Math.round(sum.sodium),
    water_milliliters: Math.round(sum.water),
    ...(sum.caffeine > 0 && { nutrients: { caffeine: { value: sum.caffeine, unit: "mg" } } }),
    timezone: ZONE,
  };
}

export function nutritionDay(plan: DayPlan): ProviderDay {
  const { date } = plan;
  const r = randomFor(plan.profile.userId, date, "nutrition");
  const minutes = (from: number, to: number) => localTime(date, r.between(from * 60, to * 60)).getTime();
  const logs: NutritionLogRecord[] = [];

  const breakfast = [r.pick(BREAKFAST), r.pick(BREAKFAST)];
  const breakfastFoods = [...new Set(breakfast)];
  logs.push(meal(r, "breakfast", plan.night.outOfBed + r.between(25, 60) * MINUTE, r.chance(0.8) ? [...breakfastFoods, COFFEE] : breakfastFoods));
  logs.push(meal(r, "lunch", minutes(12.25, 13.5), [r.pick(LUNCH)]));
  if (r.chance(0.6)) logs.push(meal(r, "snack", minutes(15.5, 16.75), [...new Set([r.pick(SNACK), r.pick(SNACK)])]));
  const afterRun = plan.run && plan.run.end > localTime(date, 17 * 60).getTime() ? plan.run.end + r.between(30, 50) * MINUTE : null;
  const dinnerAt = Math.min(afterRun ?? minutes(18.75, 20), plan.nextNight.inBed - 60 * MINUTE);
  logs.push(meal(r, "dinner", dinnerAt, r.chance(0.5) ? [r.pick(DINNER), SIDE_SALAD] : [r.pick(DINNER)]));
  return { provider: NUTRITION_PROVIDER, nutrition: logs };
}
