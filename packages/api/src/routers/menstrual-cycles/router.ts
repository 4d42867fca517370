import { router } from "../../trpc.ts";
import { listMenstrualCycles } from "./list-menstrual-cycles.ts";

export const menstrualCyclesRouter = router({ listMenstrualCycles });
