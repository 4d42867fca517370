// The rows of the first table under a heading of a guide, so a test can hold what the table
// claims against the code.

/** The body rows (cells trimmed, without the header and separator rows) of the first table after the heading `## <title>`. */
export function tableUnder(markdown: string, title: string): string[][] {
  const lines = markdown.split("\n");
  const heading = lines.findIndex((line) => /^#{1,6} /.test(line) && line.replace(/^#{1,6} /, "").trim() === title);
  if (heading === -1) throw new Error(`no heading "${title}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(heading + 1)) {
    if (/^#{1,6} /.test(line)) break;
    if (line.startsWith("|")) rows.push(line.slice(1, line.trimEnd().endsWith("|") ? line.trimEnd().length - 1 : undefined).split(" | ").map((cell) => cell.trim()));
    else if (rows.length > 0) break;
  }
  if (rows.length < 2) throw new Error(`no table under "${title}"`);
  return rows.slice(2);
}

/** The text of a cell without the backticks of a code span that is all of it. */
export const codeSpan = (cell: string): string => cell.replace(/^`(.*)`$/, "$1");
