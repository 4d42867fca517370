import { router } from "../../trpc.ts";
import { listCategorySamples } from "./list-category-samples.ts";

export const categorySamplesRouter = router({ listCategorySamples });
