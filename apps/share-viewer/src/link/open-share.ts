import type { Bundle } from "fhir/r4.js";
import { decryptJwe } from "../crypto/jwe-decrypt.ts";
import { fetchFileJwe, requestManifest, type GoneReason } from "./manifest-client.ts";
import type { ShlinkPayload } from "./shlink.ts";

/** Where opening a link ends. */
export type ShareOutcome =
  | { kind: "opened"; json: string; bundle: Bundle }
  | { kind: "passcode"; remainingAttempts: number | null }
  | { kind: "gone"; why: GoneReason }
  | { kind: "failed"; message: string };

/** How far opening has come, for the page to show. */
export type OpeningStage =
  | { stage: "download"; received: number; total: number | null }
  | { stage: "decrypt" }
  | { stage: "inflate" }
  | { stage: "read" };

const FHIR_JSON = "application/fhir+json";

/**
 * Opens a link: the manifest (with the passcode), then its FHIR file, embedded or fetched,
 * decrypted in the browser with the link's key and inflated when compressed. The decrypted
 * JSON stays in memory only. `onStage` follows the download (bytes), decryption, inflation
 * and reading.
 */
export async function openShare(link: ShlinkPayload, passcode?: string, onStage: (stage: OpeningStage) => void = () => undefined): Promise<ShareOutcome> {
  const download = (received: number, total: number | null) => onStage({ stage: "download", received, total });
  const manifest = await requestManifest(link.url, passcode, download);
  if (manifest.kind !== "files") return manifest;
  const file = manifest.files.find((f) => f.contentType === FHIR_JSON);
  if (!file) return { kind: "failed", message: "The share holds no file this page can show." };
  const jwe = await fetchFileJwe(file, download);
  if (typeof jwe !== "string") return jwe;
  let json: string;
  try {
    onStage({ stage: "decrypt" });
    json = await decryptJwe(jwe, link.key, () => onStage({ stage: "inflate" }));
  } catch {
    return { kind: "failed", message: "The shared file could not be decrypted: the link may be incomplete. Ask for the link again." };
  }
  try {
    onStage({ stage: "read" });
    const bundle = JSON.parse(json) as Bundle;
    if (bundle?.resourceType !== "Bundle") throw new Error("not a Bundle");
    return { kind: "opened", json, bundle };
  } catch {
    return { kind: "failed", message: "The shared file is not a FHIR Bundle this page can show." };
  }
}
