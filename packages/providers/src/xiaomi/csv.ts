// A small RFC 4180 reader that keeps the line number each row starts on.

export interface CsvRow {
  /** 1-based line number of the row's first line in the whole upload. */
  line: number;
  cells: string[];
  /** Index of the line after the row's last one. */
  next: number;
}

export interface CsvError {
  error: { line: number; reason: string };
}

/** The cells of one line, or null when a quoted cell is still open at its end. */
function splitLine(text: string): string[] | null {
  if (!text.includes('"')) return text.split(",");
  const cells: string[] = [];
  let cell = "";
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      cell += c;
      i++;
      continue;
    }
    if (c === '"' && cell === "") {
      quoted = true;
    } else if (c === ",") {
      cells.push(cell);
      cell = "";
    } else {
      cell += c;
    }
    i++;
  }
  if (quoted) return null;
  cells.push(cell);
  return cells;
}

/**
 * Reads CSV rows from `lines` (without their line ends), starting at index `from`; line
 * numbers are `index + 1`. Blank lines are skipped. A quoted cell may span lines; one left
 * open at the end of the text is an error naming the line its row starts on (the last item).
 */
export function* csvRows(lines: readonly string[], from: number): Generator<CsvRow | CsvError> {
  for (let i = from; i < lines.length; i++) {
    const first = lines[i] ?? "";
    if (first.trim() === "") continue;
    const start = i;
    let text = first;
    let cells = splitLine(text);
    while (cells === null) {
      i++;
      if (i >= lines.length) {
        yield { error: { line: start + 1, reason: "a quoted cell is never closed" } };
        return;
      }
      text += `\n${lines[i] ?? ""}`;
      cells = splitLine(text);
    }
    yield { line: start + 1, cells, next: i + 1 };
  }
}

/** Splits text into lines (LF or CRLF ends), dropping a leading byte order mark. */
export function splitLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.endsWith("\r")) lines[i] = line.slice(0, -1);
  }
  return lines;
}

/**
 * Decodes UTF-7 (RFC 2152), which some Mi Fitness exports are written in (`+AF8-` for `_`,
 * `+ACIAIg-` for `""`). Only called on text detected as UTF-7, where a literal `+` is `+-`.
 */
export function decodeUtf7(text: string): string {
  return text.replace(/\+([A-Za-z0-9+/]*)-?/g, (_match, b64: string) => {
    if (b64 === "") return "+";
    const bytes = Buffer.from(b64, "base64");
    let out = "";
    for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
    return out;
  });
}

export const looksLikeUtf7 = (text: string): boolean => /\+AF8-|\+ACI/.test(text);
