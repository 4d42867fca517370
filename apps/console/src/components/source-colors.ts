/** Colours of chart series (dark shades: readable on a light background, distinct from each other). */
export const SERIES_COLORS = ["blue.8", "orange.8", "teal.8", "grape.8", "red.8", "cyan.8", "lime.8", "pink.8", "indigo.8", "yellow.8"] as const;

/** A stable number for a name (FNV-1a), so a source prefers the same colour on every chart. */
function hashOf(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * One colour per source (`provider/source`) for every chart and table of a page: each source
 * takes the colour its name hashes to, or the next free one when another source of the set
 * took it (sources in name order), so sources on one page never share a colour while there
 * are colours left, and a source keeps its colour when others come and go.
 */
export function sourceColors(sources: Iterable<string>): Map<string, string> {
  const colors = new Map<string, string>();
  const taken = new Set<number>();
  for (const source of [...new Set(sources)].sort()) {
    let index = hashOf(source) % SERIES_COLORS.length;
    for (let step = 0; step < SERIES_COLORS.length && taken.has(index); step++) index = (index + 1) % SERIES_COLORS.length;
    taken.add(index);
    if (taken.size >= SERIES_COLORS.length) taken.clear();
    colors.set(source, SERIES_COLORS[index]!);
  }
  return colors;
}

/** The colour of a source in `colors`, or its hashed colour when the set did not name it. */
export function colorOf(colors: Map<string, string>, source: string): string {
  return colors.get(source) ?? SERIES_COLORS[hashOf(source) % SERIES_COLORS.length]!;
}

/** A theme colour name (`blue.8`) as CSS, for swatches drawn outside the charts. */
export function cssColor(color: string): string {
  return `var(--mantine-color-${color.replace(".", "-")})`;
}
