import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Sealer } from "@svc/core";
import { DEMO_COLLECTIONS, type DemoCollection } from "@svc/providers/demo";

// Codes and tokens of the demo authorization server, kept in no table: each is a value
// sealed with the instance's encryption key (deps.sealer: AES-256-GCM, so it can be neither
// read nor forged, and it survives a restart and a key rotation like every sealed secret).
// What must be remembered (a code spent, the refresh token in force, a revoked grant) is
// remembered by this process only: see docs/decisions.md.

export const CODE_SECONDS = 60;
export const ACCESS_SECONDS = 3600;
export const REFRESH_SECONDS = 90 * 86_400;

const PREFIXES = { code: "demo_code.", access: "demo_at.", refresh: "demo_rt." } as const;
type TokenKind = keyof typeof PREFIXES;

interface Sealed {
  kind: TokenKind;
  /** The consent this value comes from; the demo user id derives from it. */
  grant: string;
  /** Unique per value (a code's or refresh token's id). */
  id: string;
  scopes: DemoCollection[];
  /** Unix milliseconds. */
  expires: number;
  /** Codes only: what the token request must repeat. */
  redirectUri?: string;
  codeChallenge?: string;
}

/** The standard token answer (RFC 6749 5.1), plus the demo user's id. */
export interface TokenAnswer {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
  user_id: string;
}

/** An OAuth error answer (RFC 6749 5.2): its code and a description naming no secret. */
export class OAuthRefusal extends Error {
  readonly error: string;
  constructor(error: string, description: string) {
    super(description);
    this.error = error;
  }
}

/** The demo user of a consent: the same id for every code and token of that consent. */
export function demoUserIdOf(grant: string): string {
  return `demo-${createHash("sha256").update(`svc demo user\n${grant}`).digest("hex").slice(0, 24)}`;
}

/** base64url(SHA-256(verifier)): the S256 code challenge of RFC 7636. */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

export class DemoGrants {
  private readonly sealer: Sealer;
  private readonly now: () => number;
  /** Codes spent, until they expire anyway. */
  private readonly spentCodes = new Map<string, number>();
  /** Per grant, the id of the one refresh token in force (rotation). */
  private readonly currentRefresh = new Map<string, string>();
  private readonly revokedGrants = new Set<string>();

  constructor(sealer: Sealer, now: () => number = Date.now) {
    this.sealer = sealer;
    this.now = now;
  }

  /** A new consent's authorization code (valid one minute, once). */
  issueCode(request: { redirectUri: string; codeChallenge: string; scopes: DemoCollection[] }): string {
    return this.seal("code", {
      grant: randomBytes(16).toString("hex"),
      id: randomBytes(12).toString("hex"),
      scopes: request.scopes,
      expires: this.now() + CODE_SECONDS * 1000,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
    });
  }

  /** grant_type=authorization_code: the code once, with its redirect_uri and PKCE verifier. */
  exchangeCode(request: { code: string; redirectUri: string; codeVerifier: string }): TokenAnswer {
    const code = this.open("code", request.code);
    if (!code) throw new OAuthRefusal("invalid_grant", "The code is unknown or expired.");
    this.forgetSpentCodes();
    if (this.spentCodes.has(code.id)) throw new OAuthRefusal("invalid_grant", "The code was used already.");
    // Spent from the first try on, so a failing attempt cannot be repeated with other guesses.
    this.spentCodes.set(code.id, code.expires);
    if (code.redirectUri !== request.redirectUri) throw new OAuthRefusal("invalid_grant", "redirect_uri is not the one of the authorize request.");
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(request.codeVerifier) || !sameText(s256(request.codeVerifier), code.codeChallenge ?? "")) {
      throw new OAuthRefusal("invalid_grant", "code_verifier does not match the code challenge.");
    }
    return this.tokensFor(code.grant, code.scopes);
  }

  /** grant_type=refresh_token: only the newest refresh token of the grant works; it is replaced. */
  refresh(refreshToken: string): TokenAnswer {
    const token = this.open("refresh", refreshToken);
    if (!token || this.revokedGrants.has(token.grant)) throw new OAuthRefusal("invalid_grant", "The refresh token is unknown, expired or revoked.");
    const current = this.currentRefresh.get(token.grant);
    // After a restart nothing is known of the grant: the token presented is taken as the current one.
    if (current !== undefined && current !== token.id) throw new OAuthRefusal("invalid_grant", "The refresh token was replaced already.");
    return this.tokensFor(token.grant, token.scopes);
  }

  /** The user and scopes of a valid access token, or null. */
  verifyAccessToken(accessToken: string): { userId: string; scopes: DemoCollection[] } | null {
    const token = this.open("access", accessToken);
    if (!token || this.revokedGrants.has(token.grant)) return null;
    return { userId: demoUserIdOf(token.grant), scopes: token.scopes };
  }

  /** RFC 7009: the grant of an access or refresh token stops working. Unknown tokens are ignored. */
  revoke(tokenValue: string): void {
    const token = this.open("access", tokenValue) ?? this.open("refresh", tokenValue);
    if (token) this.revokedGrants.add(token.grant);
  }

  private tokensFor(grant: string, scopes: DemoCollection[]): TokenAnswer {
    const refreshId = randomBytes(12).toString("hex");
    this.currentRefresh.set(grant, refreshId);
    return {
      access_token: this.seal("access", { grant, id: randomBytes(12).toString("hex"), scopes, expires: this.now() + ACCESS_SECONDS * 1000 }),
      token_type: "Bearer",
      expires_in: ACCESS_SECONDS,
      refresh_token: this.seal("refresh", { grant, id: refreshId, scopes, expires: this.now() + REFRESH_SECONDS * 1000 }),
      scope: scopes.join(" "),
      user_id: demoUserIdOf(grant),
    };
  }

  private forgetSpentCodes(): void {
    const now = this.now();
    for (const [id, expires] of this.spentCodes) if (expires < now) this.spentCodes.delete(id);
  }

  private seal(kind: TokenKind, value: Omit<Sealed, "kind">): string {
    return PREFIXES[kind] + this.sealer.seal(JSON.stringify({ kind, ...value }));
  }

  /** The sealed value of this kind, unexpired; null for anything else. */
  private open(kind: TokenKind, text: string): Sealed | null {
    if (!text.startsWith(PREFIXES[kind])) return null;
    let value: unknown;
    try {
      value = JSON.parse(this.sealer.open(text.slice(PREFIXES[kind].length)));
    } catch {
      return null;
    }
    if (!isSealed(value) || value.kind !== kind || value.expires <= this.now()) return null;
    return value;
  }
}

function isSealed(value: unknown): value is Sealed {
  if (typeof value !== "object" || value === null) return false;
  const sealed = value as Partial<Sealed>;
  return (
    typeof sealed.kind === "string" &&
    typeof sealed.grant === "string" &&
    typeof sealed.id === "string" &&
    typeof sealed.expires === "number" &&
    Array.isArray(sealed.scopes) &&
    sealed.scopes.every((scope) => (DEMO_COLLECTIONS as readonly string[]).includes(scope))
  );
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
