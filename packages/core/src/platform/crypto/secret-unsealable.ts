/**
 * A sealed secret that no key of this instance opens: sealed with a key that is gone, or
 * altered. The message says what to do and never holds the secret.
 */
export class SecretUnsealable extends Error {
  /** The key id written in the sealed secret, when it could be read. */
  readonly keyId: string | undefined;
  readonly reason: "unknown-key" | "corrupt";

  constructor(reason: "unknown-key" | "corrupt", keyId?: string) {
    super(
      reason === "unknown-key"
        ? `The secret was sealed with an encryption key this instance no longer has (key id ${keyId}); ` +
            "put that key in SVC_PREVIOUS_ENCRYPTION_KEYS or rotate the secret."
        : "The secret could not be opened: it was altered or is not a sealed secret; rotate the secret.",
    );
    this.name = "SecretUnsealable";
    this.reason = reason;
    this.keyId = keyId;
  }
}
