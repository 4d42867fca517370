import { AppError } from "@svc/core";

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** One activity file of an upload: a line of standard base64 (whitespace around it ignored). */
export function decodeBase64Line(line: string, lineNumber: number): Uint8Array {
  const text = line.trim();
  if (text.length % 4 !== 0 || !BASE64.test(text)) throw new AppError("bad_request", `line ${lineNumber}: not a file in base64 (each line is one FIT, GPX or TCX file, base64-encoded)`);
  return Buffer.from(text, "base64");
}
