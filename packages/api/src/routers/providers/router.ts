import { router } from "../../trpc.ts";
import { eraseProviderData } from "./erase-provider-data.ts";
import { listProviders } from "./list-providers.ts";

export const providersRouter = router({ listProviders, eraseProviderData });
