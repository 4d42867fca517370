import type { Sealer } from "../platform/index.ts";

// Opening a sealed secret costs two AES-GCM decryptions, a few percent of a delivery's CPU
// when every delivery opens its endpoint's secret again. Opened secrets are kept by sealed
// value, per sealer: a rotated secret is a new sealed value, so it is opened afresh.
const KEPT = 1000;
const openedBySealer = new WeakMap<Sealer, Map<string, string>>();

/** The plaintext of an endpoint's sealed secret; throws SecretUnsealable as Sealer.open does. */
export function openEndpointSecret(sealer: Sealer, sealed: string): string {
  let opened = openedBySealer.get(sealer);
  if (opened === undefined) {
    opened = new Map();
    openedBySealer.set(sealer, opened);
  }
  let secret = opened.get(sealed);
  if (secret === undefined) {
    secret = sealer.open(sealed);
    if (opened.size >= KEPT) opened.delete(opened.keys().next().value!);
    opened.set(sealed, secret);
  }
  return secret;
}
