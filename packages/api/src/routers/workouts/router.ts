import { router } from "../../trpc.ts";
import { listWorkoutRoute } from "./list-workout-route.ts";
import { listWorkouts } from "./list-workouts.ts";

export const workoutsRouter = router({ listWorkouts, listWorkoutRoute });
