/**
 * The issue dates (YYYY-MM-DD, compared as text) from the first day of month `first` to the first
 * day after month `last`, both YYYY-MM. Computed here rather than in SQL: date arithmetic is
 * where SQLite and PostgreSQL differ.
 */
export function monthBounds(first: string, last: string): { from: string; to: string } {
  const [year, month] = last.split('-').map(Number) as [number, number];
  const next = month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
  return { from: `${first}-01`, to: `${next}-01` };
}
