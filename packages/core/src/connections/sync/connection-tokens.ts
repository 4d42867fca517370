import type { CoreDeps } from "../../deps.ts";
import { SecretUnsealable } from "../../platform/index.ts";
import { openTokens, sealTokens } from "../oauth/sealed-tokens.ts";
import { refreshTokens } from "../oauth/token-client.ts";
import { ProviderError, type Connector, type ProviderKeys, type ProviderTokens, type ProviderUrls } from "../providers/connector.ts";
import { PROVIDER_REQUEST_TIMEOUT_MS } from "../providers/provider-request.ts";
import {
  findConnectionTokens,
  lockConnectionTokens,
  replaceConnectionTokens,
  type ConnectionTokenState,
} from "../connection-health-repository.ts";

/** The connection stopped being active while a pull ran (disconnected, or moved to needs_reauth elsewhere). */
export class ConnectionNotActive extends Error {
  readonly status: "needs_reauth" | "disconnected";
  constructor(status: "needs_reauth" | "disconnected") {
    super(status === "disconnected" ? "The connection was disconnected." : "The connection needs the user's reauth.");
    this.name = "ConnectionNotActive";
    this.status = status;
  }
}

/**
 * The access token of one connection during a pull. Refreshes it before a pull when it
 * ends within `refreshBeforeExpiryMs`, and once more when the provider answers 401.
 *
 * Refresh tokens may rotate (the old one stops working once used), so two workers must
 * never both spend one: the refresh runs under a lock of the connection row, and commits
 * only over the token version it started from. A worker that finds the version moved while
 * it waited for the lock takes the tokens the other one stored instead of refreshing again.
 */
export class ConnectionTokens {
  private readonly deps: Pick<CoreDeps, "db" | "sealer" | "sync">;
  private readonly connector: Connector;
  private readonly urls: ProviderUrls;
  private readonly keys: ProviderKeys;
  private readonly connectionId: bigint;
  private tokens: ProviderTokens | null = null;
  private version = -1;

  constructor(
    deps: Pick<CoreDeps, "db" | "sealer" | "sync">,
    input: { connector: Connector; urls: ProviderUrls; keys: ProviderKeys; connectionId: bigint },
  ) {
    this.deps = deps;
    this.connector = input.connector;
    this.urls = input.urls;
    this.keys = input.keys;
    this.connectionId = input.connectionId;
  }

  /** The access token to send; refreshed first when it ends soon. */
  async accessToken(): Promise<string> {
    if (this.tokens === null) {
      const state = await findConnectionTokens(this.deps.db, this.connectionId);
      this.take(state);
    }
    const tokens = this.tokens!;
    const endsSoon = tokens.expiresAt !== null && tokens.expiresAt.getTime() - Date.now() < this.deps.sync.refreshBeforeExpiryMs;
    if (endsSoon && tokens.refreshToken) await this.refresh();
    return this.tokens!.accessToken;
  }

  /** The provider refused the access token (401): refresh (or take another worker's newer tokens); refused when it cannot. */
  async afterUnauthorized(): Promise<string> {
    if (!this.tokens?.refreshToken) throw new ProviderError("refused", "The provider refused the access token and there is no refresh token.");
    await this.refresh();
    return this.tokens!.accessToken;
  }

  private async refresh(): Promise<void> {
    const fromVersion = this.version;
    const refreshToken = this.tokens!.refreshToken!;
    // The row stays locked while the provider answers: a second worker waits here, then sees the new version.
    await this.deps.db.$transaction(
      async (tx) => {
        const locked = await lockConnectionTokens(tx, this.connectionId);
        if (locked === null || locked.status !== "active" || locked.tokenVersion !== fromVersion) return this.take(locked);
        const refreshed = await refreshTokens(this.connector, this.urls, this.keys, refreshToken);
        const sealed = sealTokens(this.deps.sealer, refreshed);
        const replaced = await replaceConnectionTokens(tx, this.connectionId, fromVersion, {
          sealedTokens: sealed,
          accessExpiresAt: refreshed.expiresAt,
          scopes: refreshed.scopes,
        });
        if (!replaced) throw new ConnectionNotActive("disconnected");
        this.tokens = refreshed;
        this.version = fromVersion + 1;
      },
      { maxWait: PROVIDER_REQUEST_TIMEOUT_MS, timeout: PROVIDER_REQUEST_TIMEOUT_MS + 15_000 },
    );
  }

  /** Reads the row's tokens; throws when the connection is no longer active or its tokens do not open. */
  private take(state: ConnectionTokenState | null): void {
    if (state === null || state.status === "disconnected" || state.sealedTokens === null) throw new ConnectionNotActive("disconnected");
    if (state.status === "needs_reauth") throw new ConnectionNotActive("needs_reauth");
    try {
      this.tokens = openTokens(this.deps.sealer, state.sealedTokens);
    } catch (error) {
      if (!(error instanceof SecretUnsealable)) throw error;
      throw new ProviderError("refused", "The connection's stored tokens no longer open (the encryption key changed): the user must reconnect.");
    }
    this.version = state.tokenVersion;
  }
}
