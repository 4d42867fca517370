import { router } from "../../trpc.ts";
import { listSleepPhases } from "./list-sleep-phases.ts";
import { listSleepSessions } from "./list-sleep-sessions.ts";

export const sleepRouter = router({ listSleepSessions, listSleepPhases });
