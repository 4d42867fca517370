/** What the viewer tells the server about who opens a link (SMART Health Links `recipient`). */
export const RECIPIENT = "Shared health data viewer (browser)";

export interface ManifestFile {
  contentType: string;
  embedded?: string;
  location?: string;
}

/** Why a share cannot be opened, as the server's 404 says (svc adds `share_status` and `revoked_reason`). */
export type GoneReason =
  | { status: "revoked"; reason: "owner" | "consent" | "provider_erased" | "passcode_attempts" | null }
  | { status: "expired" }
  | { status: "unknown" };

/** The answer of a manifest request, as the viewer acts on it. */
export type ManifestAnswer =
  | { kind: "files"; files: ManifestFile[] }
  /** The passcode is missing or wrong; 0 attempts left means the link is now revoked. */
  | { kind: "passcode"; remainingAttempts: number | null }
  /** Unknown, revoked or expired. */
  | { kind: "gone"; why: GoneReason }
  | { kind: "failed"; message: string };

/** Bytes of the answer received so far, and its length when the server said (Content-Length). */
export type DownloadProgress = (received: number, total: number | null) => void;

const FAILED_MESSAGE = "The server could not open the share right now. Try again in a moment.";
const DOWNLOAD_FAILED = "The shared file could not be downloaded. Try again in a moment.";
const FAILED: ManifestAnswer = { kind: "failed", message: FAILED_MESSAGE };

/** The body's text, read chunk by chunk so its download can be shown. */
async function readText(response: Response, onProgress?: DownloadProgress): Promise<string> {
  const length = Number(response.headers.get("content-length"));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  if (!response.body) return response.text();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress?.(0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    onProgress?.(received, total);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const REVOKED_REASONS = ["owner", "consent", "provider_erased", "passcode_attempts"] as const;

/** Why the server says a share is gone (its 404 problem's members). */
function goneReasonOf(body: unknown): GoneReason {
  const fields = (typeof body === "object" && body !== null ? body : {}) as { share_status?: unknown; revoked_reason?: unknown };
  if (fields.share_status === "expired") return { status: "expired" };
  if (fields.share_status !== "revoked") return { status: "unknown" };
  const reason = REVOKED_REASONS.find((known) => known === fields.revoked_reason) ?? null;
  return { status: "revoked", reason };
}

function filesOf(body: unknown): ManifestFile[] | null {
  const files = (body as { files?: unknown } | undefined)?.files;
  if (!Array.isArray(files)) return null;
  return files.filter(
    (file): file is ManifestFile =>
      typeof file === "object" && file !== null && typeof file.contentType === "string" && (typeof file.embedded === "string" || typeof file.location === "string"),
  );
}

/**
 * POSTs the manifest URL with the passcode (when there is one); the answer embeds the file,
 * so `onProgress` follows its download. Network failures answer `failed`.
 */
export async function requestManifest(url: string, passcode?: string, onProgress?: DownloadProgress): Promise<ManifestAnswer> {
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ recipient: RECIPIENT, ...(passcode !== undefined && { passcode }) }),
      credentials: "omit",
      cache: "no-store",
      referrerPolicy: "no-referrer",
    });
    body = jsonOf(await readText(response, response.ok ? onProgress : undefined));
  } catch {
    return FAILED;
  }
  if (response.status === 404) return { kind: "gone", why: goneReasonOf(body) };
  if (response.status === 401) {
    const remaining = (body as { remainingAttempts?: unknown } | undefined)?.remainingAttempts;
    return { kind: "passcode", remainingAttempts: typeof remaining === "number" ? remaining : null };
  }
  if (!response.ok) return FAILED;
  const files = filesOf(body);
  return files ? { kind: "files", files } : FAILED;
}

/** The encrypted file (compact JWE): embedded in the manifest, or fetched from its location. */
export async function fetchFileJwe(
  file: ManifestFile,
  onProgress?: DownloadProgress,
): Promise<string | { kind: "gone"; why: GoneReason } | { kind: "failed"; message: string }> {
  if (file.embedded !== undefined) return file.embedded;
  try {
    const response = await fetch(file.location ?? "", { credentials: "omit", cache: "no-store", referrerPolicy: "no-referrer" });
    if (response.status === 404) return { kind: "gone", why: goneReasonOf(jsonOf(await response.text())) };
    if (!response.ok) return { kind: "failed", message: FAILED_MESSAGE };
    return await readText(response, onProgress);
  } catch {
    return { kind: "failed", message: DOWNLOAD_FAILED };
  }
}
