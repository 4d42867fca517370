import { router } from "../../trpc.ts";
import { listHrv } from "./list-hrv.ts";
import { listRrIntervals } from "./list-rr-intervals.ts";

export const heartbeatsRouter = router({ listRrIntervals, listHrv });
