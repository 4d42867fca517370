import { router } from "../../trpc.ts";
import { listDailySummaries } from "./list-daily-summaries.ts";

export const dailyRouter = router({ listDailySummaries });
