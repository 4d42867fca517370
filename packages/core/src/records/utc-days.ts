const DAY_MS = 86_400_000;

/** The UTC days an interval touches, as day numbers since 1970-01-01 (an instant touches one). */
function dayNumbers(start: Date, end: Date): [first: number, last: number] {
  const first = Math.floor(start.getTime() / DAY_MS);
  return [first, end > start ? Math.floor((end.getTime() - 1) / DAY_MS) : first];
}

const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The UTC dates (YYYY-MM-DD) an interval touches (an instant touches one). */
export function utcDays(start: Date, end: Date): string[] {
  const [first, last] = dayNumbers(start, end);
  const days: string[] = [];
  for (let day = first; day <= last; day++) days.push(dateOf(day));
  return days;
}

/** The UTC dates many intervals touch, collected as numbers (one per sample of a large batch costs little). */
export class UtcDaySet {
  private readonly days = new Set<number>();

  add(start: Date, end: Date): void {
    const [first, last] = dayNumbers(start, end);
    for (let day = first; day <= last; day++) this.days.add(day);
  }

  /** The dates, earliest first. */
  dates(): string[] {
    return [...this.days].sort((a, b) => a - b).map(dateOf);
  }
}
