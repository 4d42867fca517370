/** Whether the URL points at this machine by a loopback name or address (where plain http is allowed). */
export function isLoopbackUrl(url: URL): boolean {
  return url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
}
