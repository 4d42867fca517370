import { router } from "../../trpc.ts";
import { createShare } from "./create-share.ts";
import { getShare } from "./get-share.ts";
import { listShares } from "./list-shares.ts";
import { revokeShare } from "./revoke-share.ts";

export const sharesRouter = router({ createShare, listShares, getShare, revokeShare });
