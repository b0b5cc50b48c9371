/** One record per page (seed §9: order history, chats): `last_page` is the number of records (at least 1). */
export async function onePerPage<T>(count: () => Promise<number>, load: (offset: number) => Promise<T | undefined>, page: number): Promise<{ data: T[]; last_page: number }> {
  const total = await count();
  const row = page <= total ? await load(page - 1) : undefined;
  return { data: row === undefined ? [] : [row], last_page: Math.max(1, total) };
}
