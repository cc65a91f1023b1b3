import pg from 'pg'

/**
 * SQL statements sent through pg while `run` runs. Counts every client of the process: only meaningful
 * while the calling test file's app is the only user of its pool.
 */
export async function statementsDuring(run: () => Promise<unknown>): Promise<number> {
  const original = pg.Client.prototype.query
  let count = 0
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    count += 1
    return (original as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof original
  try {
    await run()
  } finally {
    pg.Client.prototype.query = original
  }
  return count
}

/**
 * The fewest statements of three runs of `run`, each right after a warm run: a cache (5 s) that expires, or
 * a statement of other work in the process, can only add to a count, so the fewest is the run's own cost.
 */
export async function fewestStatements(run: () => Promise<unknown>): Promise<number> {
  const counts = []
  for (let i = 0; i < 3; i++) {
    await run()
    counts.push(await statementsDuring(run))
  }
  return Math.min(...counts)
}
