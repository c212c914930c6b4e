/**
 * Runs tasks at most `limit` at a time, results in input order.
 *
 * Why not Promise.all: each task is a Pulumi preview (a CLI, a language host and provider
 * processes); a pipeline sets how many its runner can hold at once (`--parallel`).
 */
export async function runLimited<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}
