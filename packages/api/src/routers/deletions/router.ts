import { router } from "../../trpc.ts";
import { getDeletion } from "./get-deletion.ts";

export const deletionsRouter = router({ getDeletion });
