import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/index.js'
import { silentLogger } from '../support/database.js'

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('random_page_cost on PostgreSQL', () => {
  let handle: DatabaseHandle | undefined
  afterEach(() => handle?.close())

  async function randomPageCost(url: string): Promise<string> {
    handle = await openDatabase({ databaseUrl: url, dataDir: '', logger: silentLogger, statisticsCheckIntervalMs: 0 })
    // Three statements held open at once take three new connections: each gets the setting before its first statement.
    const read = async () =>
      (await sql<{ value: string; pid: number }>`select current_setting('random_page_cost') as value, pg_backend_pid() as pid, pg_sleep(0.1)`.execute(handle!.db)).rows[0]!
    const rows = await Promise.all([read(), read(), read()])
    expect(new Set(rows.map((row) => row.pid)).size).toBe(3)
    expect(new Set(rows.map((row) => row.value)).size).toBe(1)
    return rows[0]!.value
  }

  it('is the SSD cost on every connection when the server leaves it at its default', async () => {
    expect(await randomPageCost(process.env.TEST_DATABASE_URL!)).toBe('1.1')
  })

  it('is the operator\u2019s when set anywhere, here in the connection URL', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!)
    url.searchParams.set('options', '-c random_page_cost=2')
    expect(await randomPageCost(url.toString())).toBe('2')
  })
})
