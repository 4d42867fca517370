/** What the viewer tells the server about who opens a link (SMART Health Links `recipient`). */
export const RECIPIENT = "Shared health data viewer (browser)";

export interface ManifestFile {
  contentType: string;
  embedded?: string;
  location?: string;
}

/** The answer of a manifest request, as the viewer acts on it. */
export type ManifestAnswer =
  | { kind: "files"; files: ManifestFile[] }
  /** The passcode is missing or wrong; 0 attempts left means the link is now revoked. */
  | { kind: "passcode"; remainingAttempts: number | null }
  /** Unknown, revoked or expired. */
  | { kind: "gone" }
  | { kind: "failed"; message: string };

const FAILED_MESSAGE = "The server could not open the share right now. Try again in a moment.";
const FAILED: ManifestAnswer = { kind: "failed", message: FAILED_MESSAGE };

async function jsonOf(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

function filesOf(body: unknown): ManifestFile[] | null {
  const files = (body as { files?: unknown } | undefined)?.files;
  if (!Array.isArray(files)) return null;
  return files.filter(
    (file): file is ManifestFile =>
      typeof file === "object" && file !== null && typeof file.contentType === "string" && (typeof file.embedded === "string" || typeof file.location === "string"),
  );
}

/** POSTs the manifest URL with the passcode (when there is one). Network failures answer `failed`. */
export async function requestManifest(url: string, passcode?: string): Promise<ManifestAnswer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ recipient: RECIPIENT, ...(passcode !== undefined && { passcode }) }),
      credentials: "omit",
      cache: "no-store",
      referrerPolicy: "no-referrer",
    });
  } catch {
    return FAILED;
  }
  if (response.status === 404) return { kind: "gone" };
  const body = await jsonOf(response);
  if (response.status === 401) {
    const remaining = (body as { remainingAttempts?: unknown } | undefined)?.remainingAttempts;
    return { kind: "passcode", remainingAttempts: typeof remaining === "number" ? remaining : null };
  }
  if (!response.ok) return FAILED;
  const files = filesOf(body);
  return files ? { kind: "files", files } : FAILED;
}

/** The encrypted file (compact JWE): embedded in the manifest, or fetched from its location. */
export async function fetchFileJwe(file: ManifestFile): Promise<string | { kind: "gone" } | { kind: "failed"; message: string }> {
  if (file.embedded !== undefined) return file.embedded;
  try {
    const response = await fetch(file.location ?? "", { credentials: "omit", cache: "no-store", referrerPolicy: "no-referrer" });
    if (response.status === 404) return { kind: "gone" };
    if (!response.ok) return { kind: "failed", message: FAILED_MESSAGE };
    return await response.text();
  } catch {
    return { kind: "failed", message: "The shared file could not be downloaded. Try again in a moment." };
  }
}
