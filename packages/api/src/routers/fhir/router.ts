import { router } from "../../trpc.ts";
import { searchObservations } from "./search-observations.ts";

export const fhirRouter = router({ searchObservations });
