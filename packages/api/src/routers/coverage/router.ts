import { router } from "../../trpc.ts";
import { getCoverage } from "./get-coverage.ts";

export const coverageRouter = router({ getCoverage });
