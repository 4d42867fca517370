import { router } from "../../trpc.ts";
import { getPipeline } from "./get-pipeline.ts";

export const pipelineRouter = router({ getPipeline });
