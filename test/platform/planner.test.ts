import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/index.js'
import { silentLogger } from '../support/database.js'

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('random_page_cost on PostgreSQL', () => {
  let handle: DatabaseHandle | undefined
  afterEach(() => handle?.close())

  async function randomPageCost(url: string): Promise<string> {
    handle = await openDatabase({ databaseUrl: url, dataDir: '', logger: silentLogger, statisticsCheckIntervalMs: 0 })
    // Several connections at once: each new one gets the setting before its first statement.
    const values = await Promise.all(Array.from({ length: 3 }, async () => (await sql<{ value: string }>`select current_setting('random_page_cost') as value`.execute(handle!.db)).rows[0]!.value))
    expect(new Set(values).size).toBe(1)
    return values[0]!
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
