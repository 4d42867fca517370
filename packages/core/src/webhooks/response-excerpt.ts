// The excerpt of a receiver's answer kept with each attempt: the first 1 KiB, as text.
import type { Readable } from "node:stream";

export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * Everything but printable text: control characters (except tab, line feed and carriage
 * return), format characters (bidi overrides, zero-width marks), private-use and
 * unassigned code points, line and paragraph separators, and U+FFFD, which the decoder
 * puts in place of invalid UTF-8.
 */
const NOT_PRINTABLE = /(?![\t\n\r])[\p{C}\p{Zl}\p{Zp}\uFFFD]/gu;

export type ExcerptRead = {
  excerpt: string;
  /** The deadline passed before the body ended or reached the excerpt size. */
  timedOut: boolean;
};

/**
 * Reads at most RESPONSE_EXCERPT_BYTES of a response body and destroys the stream then, so
 * a large or endless body is never read to its end. When `deadline` fires first, the
 * stream is destroyed too and what arrived so far is returned.
 */
export async function readExcerpt(body: Readable, deadline: AbortSignal): Promise<ExcerptRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  let timedOut = false;
  const stop = () => body.destroy();
  deadline.addEventListener("abort", stop, { once: true });
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_EXCERPT_BYTES) {
        cut = true;
        break;
      }
    }
  } catch (error) {
    if (!deadline.aborted) throw error;
    timedOut = true;
  } finally {
    deadline.removeEventListener("abort", stop);
    body.destroy();
  }
  const bytes = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
  return { excerpt: decodeExcerpt(bytes, { cut: cut || timedOut }), timedOut };
}

/**
 * UTF-8 text with every invalid sequence and non-printable character replaced by `?`.
 * When the bytes were cut from a longer body, a multi-byte character split by the cut is
 * dropped rather than shown as `?`.
 */
export function decodeExcerpt(bytes: Uint8Array, options: { cut: boolean }): string {
  const text = new TextDecoder("utf-8").decode(bytes, { stream: options.cut });
  return text.replace(NOT_PRINTABLE, "?");
}
