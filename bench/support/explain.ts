import { RawNode, type KyselyPlugin, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely'
import type { Db } from '../../src/platform/db/index.js'

/**
 * The plan of the statements a store function runs, exactly as it builds them (same SQL, same
 * parameters): with this plugin, every raw `sql` statement it runs on the returned Db is prefixed with
 * `explain (analyze) ` and its rows are the plan's lines. Query-builder statements run as they are.
 */
export async function explainRaw(db: Db, run: (db: Db) => Promise<unknown>): Promise<string[]> {
  const plans: string[][] = []
  const plugin: KyselyPlugin = {
    transformQuery({ node }): RootOperationNode {
      if (!RawNode.is(node)) return node
      const [first = '', ...rest] = node.sqlFragments
      return RawNode.create([`explain (analyze, buffers) ${first}`, ...rest], node.parameters) as unknown as RootOperationNode
    },
    async transformResult({ result }): Promise<QueryResult<UnknownRow>> {
      const lines = result.rows.map((row) => row['QUERY PLAN']).filter((line): line is string => typeof line === 'string')
      if (lines.length > 0) plans.push(lines)
      return result
    },
  }
  await run(db.withPlugin(plugin))
  return plans.flat()
}

/** The plan's scan nodes, one line each ("Index Scan using x on t"), for a short summary. */
export function scansOf(plan: string[]): string[] {
  return [
    ...new Set(
      plan
        .map((line) => /((?:Parallel )?(?:Bitmap Index|Bitmap Heap|Index Only|Index|Seq) Scan(?: Backward)?(?: using \S+)? on \S+(?: \S+)?)/.exec(line)?.[1])
        .filter((scan): scan is string => scan !== undefined),
    ),
  ]
}
