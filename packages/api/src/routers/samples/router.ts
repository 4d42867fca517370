import { router } from "../../trpc.ts";
import { getSampleStats } from "./get-sample-stats.ts";
import { listSamples } from "./list-samples.ts";

export const samplesRouter = router({ listSamples, getSampleStats });
