/** Every item of an async iterable, in an array (`Array.fromAsync` is not in Node 20). */
export async function collectAsync<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
