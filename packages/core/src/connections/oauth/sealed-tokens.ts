import type { Sealer } from "../../platform/index.ts";
import type { ProviderTokens } from "../providers/connector.ts";

/** The JSON sealed in `connections.sealed_tokens`. */
interface SealedTokenJson {
  access_token: string;
  refresh_token: string | null;
  expires_at: string | null;
  scopes: string[] | null;
  raw: Record<string, unknown>;
}

/** Seals a user's tokens for the connection row; the text never leaves the database unsealed. */
export function sealTokens(sealer: Sealer, tokens: ProviderTokens): string {
  const json: SealedTokenJson = {
    access_token: tokens.accessToken,
    refresh_token: tokens.refreshToken,
    expires_at: tokens.expiresAt?.toISOString() ?? null,
    scopes: tokens.scopes,
    raw: { ...tokens.raw },
  };
  return sealer.seal(JSON.stringify(json));
}

/** Opens sealed tokens; throws SecretUnsealable when no key of this instance opens them. */
export function openTokens(sealer: Sealer, sealed: string): ProviderTokens {
  const json = JSON.parse(sealer.open(sealed)) as SealedTokenJson;
  return {
    accessToken: json.access_token,
    refreshToken: json.refresh_token,
    expiresAt: json.expires_at ? new Date(json.expires_at) : null,
    scopes: json.scopes,
    raw: json.raw,
  };
}
