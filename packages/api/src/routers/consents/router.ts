import { router } from "../../trpc.ts";
import { grantConsent } from "./grant-consent.ts";
import { listConsents } from "./list-consents.ts";
import { revokeConsent } from "./revoke-consent.ts";

export const consentsRouter = router({ listConsents, grantConsent, revokeConsent });
