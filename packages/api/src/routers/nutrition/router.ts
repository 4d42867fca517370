import { router } from "../../trpc.ts";
import { listNutrition } from "./list-nutrition.ts";

export const nutritionRouter = router({ listNutrition });
