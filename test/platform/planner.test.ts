import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/index.js'
import { silentLogger } from '../support/database.js'

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('session defaults on PostgreSQL', () => {
  let handle: DatabaseHandle | undefined
  afterEach(() => handle?.close())

  async function settings(url: string): Promise<string> {
    handle = await openDatabase({ databaseUrl: url, dataDir: '', logger: silentLogger, statisticsCheckIntervalMs: 0 })
    // Three statements held open at once take three new connections: each gets the settings before its first statement.
    const read = async () =>
      (
        await sql<{ value: string; pid: number }>`select current_setting('random_page_cost') || ' ' || current_setting('jit') as value, pg_backend_pid() as pid, pg_sleep(0.1)`.execute(
          handle!.db,
        )
      ).rows[0]!
    const rows = await Promise.all([read(), read(), read()])
    expect(new Set(rows.map((row) => row.pid)).size).toBe(3)
    expect(new Set(rows.map((row) => row.value)).size).toBe(1)
    return rows[0]!.value
  }

  it('are the SSD cost and no JIT on every connection when the server leaves them at their defaults', async () => {
    expect(await settings(process.env.TEST_DATABASE_URL!)).toBe('1.1 off')
  })

  it('are the operator\u2019s where set anywhere, here in the connection URL', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!)
    url.searchParams.set('options', '-c random_page_cost=2 -c jit=on')
    expect(await settings(url.toString())).toBe('2 on')
  })

  it('leave the one the operator did not set at ours', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!)
    url.searchParams.set('options', '-c jit=on')
    expect(await settings(url.toString())).toBe('1.1 on')
  })
})
