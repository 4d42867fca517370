import type { Bundle } from "fhir/r4.js";
import { decryptJwe } from "../crypto/jwe-decrypt.ts";
import { fetchFileJwe, requestManifest } from "./manifest-client.ts";
import type { ShlinkPayload } from "./shlink.ts";

/** Where opening a link ends. */
export type ShareOutcome =
  | { kind: "opened"; json: string; bundle: Bundle }
  | { kind: "passcode"; remainingAttempts: number | null }
  | { kind: "gone" }
  | { kind: "failed"; message: string };

const FHIR_JSON = "application/fhir+json";

/**
 * Opens a link: the manifest (with the passcode), then its FHIR file, embedded or fetched,
 * decrypted in the browser with the link's key. The decrypted JSON stays in memory only.
 */
export async function openShare(link: ShlinkPayload, passcode?: string): Promise<ShareOutcome> {
  const manifest = await requestManifest(link.url, passcode);
  if (manifest.kind !== "files") return manifest;
  const file = manifest.files.find((f) => f.contentType === FHIR_JSON);
  if (!file) return { kind: "failed", message: "The share holds no file this page can show." };
  const jwe = await fetchFileJwe(file);
  if (typeof jwe !== "string") return jwe;
  let json: string;
  try {
    json = await decryptJwe(jwe, link.key);
  } catch {
    return { kind: "failed", message: "The shared file could not be decrypted: the link may be incomplete. Ask for the link again." };
  }
  try {
    const bundle = JSON.parse(json) as Bundle;
    if (bundle?.resourceType !== "Bundle") throw new Error("not a Bundle");
    return { kind: "opened", json, bundle };
  } catch {
    return { kind: "failed", message: "The shared file is not a FHIR Bundle this page can show." };
  }
}
