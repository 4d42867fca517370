// Whether a block's output is what the guide shows after it. `...` in the shown text stands
// for any text (ids, times, fields left out). A ```json output block may be formatted: the
// whitespace outside JSON strings is ignored on both sides, so a compact answer matches its
// indented form. Other blocks compare line by line, without trailing spaces and with CRLF
// (curl -i headers) read as LF.

export function outputMatches(expected: string, actual: string, lang: string | null): boolean {
  const normalize = lang === "json" ? squeezeJson : squeezeText;
  const pattern = normalize(expected)
    .split("...")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*?");
  return new RegExp(`^${pattern}$`).test(normalize(actual));
}

function squeezeText(text: string): string {
  return text
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .trim();
}

/** JSON text without the whitespace between its tokens (strings kept as they are). */
function squeezeJson(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (inString) {
      out += char;
      if (char === "\\") out += text[++i] ?? "";
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
      out += char;
    } else if (!/\s/.test(char)) {
      out += char;
    }
  }
  return out;
}
