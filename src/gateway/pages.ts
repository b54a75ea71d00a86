/** Every item of a paginated listing. */
export async function allPages<P extends { nextCursor?: string }, T>(
  list: (params: { cursor: string } | undefined) => Promise<P>,
  items: (page: P) => readonly T[]
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor ? { cursor } : undefined);
    all.push(...items(page));
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}
