/** `perPage` records a page: `last_page` is the number of such pages (at least 1); a page past it is empty. */
export async function paged<T>(count: () => Promise<number>, load: (offset: number, limit: number) => Promise<T[]>, page: number, perPage: number): Promise<{ data: T[]; last_page: number }> {
  const total = await count();
  const offset = (page - 1) * perPage;
  return { data: offset < total ? await load(offset, perPage) : [], last_page: Math.max(1, Math.ceil(total / perPage)) };
}

/** One record per page (seed §9: order history, chats): `last_page` is the number of records (at least 1). */
export function onePerPage<T>(count: () => Promise<number>, load: (offset: number) => Promise<T | undefined>, page: number): Promise<{ data: T[]; last_page: number }> {
  return paged(count, async (offset) => {
    const row = await load(offset);
    return row === undefined ? [] : [row];
  }, page, 1);
}
