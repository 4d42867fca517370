import { router } from "../../trpc.ts";
import { createSelfReports } from "./create-self-reports.ts";

export const selfReportsRouter = router({ createSelfReports });
