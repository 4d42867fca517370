import * as oauth from "oauth4webapi";
import type { CoreDeps } from "../../deps.ts";
import { type DbClient, hashSecret } from "../../platform/index.ts";
import {
  consumeConsentStateRow,
  deleteExpiredConsentStates,
  findConsentStateByHash,
  findOpenConsentStateTenantName,
  insertConsentState,
  type ConsentStateRow,
} from "./consent-state-repository.ts";
import type { ApplicationKeys } from "../provider-config.ts";

/** A consent state expires 10 minutes after it is made (spec: Consent state of a connect link). */
export const CONSENT_STATE_TTL_MS = 10 * 60 * 1000;

export interface NewConsentState {
  /** Sent as `state` on authorize; only its SHA-256 is stored. */
  state: string;
  /** The PKCE S256 challenge of the stored (sealed) verifier. */
  codeChallenge: string;
  expiresAt: Date;
}

/** What a consumed state tells the callback. */
export interface ConsentState {
  userId: string;
  provider: string;
  codeVerifier: string;
  redirectUri: string | null;
  /** The token of the connect link the consent was started from, if any. */
  connectToken: string | null;
  keySource: string;
  applicationId: string;
}

export type ConsumedConsentState =
  | { ok: true; consent: ConsentState }
  /** A used or expired state still tells where its consent was to end (its provider, redirect_uri and connect link). */
  | { ok: false; reason: "unknown" | "used" | "expired"; provider: string | null; redirectUri: string | null; connectToken: string | null };

/** A new single-use state for one consent round trip of the user at the provider. */
export async function createConsentState(
  deps: Pick<CoreDeps, "sealer">,
  db: DbClient,
  input: { userId: string; provider: string; redirectUri: string | null; connectToken: string | null; application: ApplicationKeys },
  now: Date = new Date(),
): Promise<NewConsentState> {
  const state = oauth.generateRandomState();
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const expiresAt = new Date(now.getTime() + CONSENT_STATE_TTL_MS);
  await deleteExpiredConsentStates(db, input.userId, input.provider, now);
  await insertConsentState(db, {
    stateHash: hashSecret(state),
    userId: input.userId,
    provider: input.provider,
    sealedVerifier: deps.sealer.seal(codeVerifier),
    redirectUri: input.redirectUri,
    sealedConnectToken: input.connectToken === null ? null : deps.sealer.seal(input.connectToken),
    keySource: input.application.keySource,
    applicationId: input.application.applicationId,
    expiresAt,
  });
  return { state, codeChallenge: await oauth.calculatePKCECodeChallenge(codeVerifier), expiresAt };
}

/** Uses the state (once): its consent, or why it cannot be used. */
export async function consumeConsentState(deps: Pick<CoreDeps, "sealer">, db: DbClient, state: string): Promise<ConsumedConsentState> {
  const stateHash = hashSecret(state);
  const row = await consumeConsentStateRow(db, stateHash);
  if (!row) {
    const known = await findConsentStateByHash(db, stateHash);
    if (!known) return { ok: false, reason: "unknown", provider: null, redirectUri: null, connectToken: null };
    return { ok: false, reason: known.usedAt ? "used" : "expired", provider: known.provider, redirectUri: known.redirectUri, connectToken: connectTokenOf(deps, known) };
  }
  return {
    ok: true,
    consent: {
      userId: row.userId,
      provider: row.provider,
      codeVerifier: deps.sealer.open(row.sealedVerifier),
      redirectUri: row.redirectUri,
      connectToken: connectTokenOf(deps, row),
      keySource: row.keySource,
      applicationId: row.applicationId,
    },
  };
}

function connectTokenOf(deps: Pick<CoreDeps, "sealer">, row: ConsentStateRow): string | null {
  return row.sealedConnectToken === null ? null : deps.sealer.open(row.sealedConnectToken);
}

/**
 * The name of the tenant (the app) a consent state was made for, while it can still be used:
 * for a provider's consent page that this instance serves itself (the demo provider), which
 * can name the app asking where a real provider names its registered client.
 */
export function consentStateTenantName(db: DbClient, provider: string, state: string, now: Date = new Date()): Promise<string | null> {
  return findOpenConsentStateTenantName(db, hashSecret(state), provider, now);
}
