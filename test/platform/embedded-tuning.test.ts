import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { embeddedTuning } from '../../src/platform/db/embedded.js'
import { openDatabase, type DatabaseHandle, type Db } from '../../src/platform/db/index.js'
import { silentLogger } from '../support/database.js'

const MiB = 1024 * 1024

describe('embedded database tuning by size', () => {
  it.each([
    [0, '16MB', false],
    [9 * MiB, '16MB', false],
    [17 * MiB, '24MB', false],
    [35 * MiB, '40MB', false],
    [64 * MiB, '64MB', true],
    [2048 * MiB, '128MB', true],
  ])('a database of %d bytes gets shared_buffers %s, WASM optimised: %s', (bytes, buffers, optimizeWasm) => {
    expect(embeddedTuning(bytes)).toEqual({ settings: { shared_buffers: buffers, maintenance_work_mem: '16MB', random_page_cost: '1.1' }, optimizeWasm })
  })
})

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('embedded database settings', () => {
  let dataDir: string
  let handle: DatabaseHandle | undefined

  const open = async () => {
    handle = await openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger })
    return handle.db
  }
  const show = async (db: Db, name: 'shared_buffers' | 'maintenance_work_mem' | 'random_page_cost') =>
    (await sql<{ value: string }>`select current_setting(${name}) as value`.execute(db)).rows[0]!.value
  const includes = () => readFileSync(join(dataDir, 'pg', 'postgresql.conf'), 'utf8').split('\n').filter((line) => line === "include_if_exists = 'asset-library.conf'")

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'al-tuning-'))
    // What an interrupted first start of this version leaves (a scratch initdb directory), and an empty
    // pg/ (as an older version's start may have left): neither stops a first start.
    mkdirSync(join(dataDir, 'pg.initdb-leftover', 'base'), { recursive: true })
    mkdirSync(join(dataDir, 'pg'))
  })
  afterAll(async () => {
    await handle?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('on the first start: initdb apart, then small buffers through asset-library.conf', async () => {
    const db = await open()
    expect(await show(db, 'shared_buffers')).toBe('16MB')
    expect(await show(db, 'maintenance_work_mem')).toBe('16MB')
    expect(await show(db, 'random_page_cost')).toBe('1.1')
    expect(readdirSync(dataDir).filter((entry) => entry.startsWith('pg.'))).toEqual([])
    expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true)
    expect(includes()).toHaveLength(1)
    expect(readFileSync(join(dataDir, 'pg', 'asset-library.conf'), 'utf8')).toMatch(/not optimised/)
  })

  it('lets ALTER SYSTEM override them, and includes the file once however often it starts', async () => {
    await sql`alter system set shared_buffers = '24MB'`.execute(handle!.db)
    await handle!.close()
    const db = await open()
    expect(await show(db, 'shared_buffers')).toBe('24MB')
    await sql`alter system reset shared_buffers`.execute(db)
    await handle!.close()
    expect(await show(await open(), 'shared_buffers')).toBe('16MB')
    expect(includes()).toHaveLength(1)
  })

  it('sizes the buffers by the database at each start', async () => {
    // ~20 MB of rows that do not compress: the next start takes 24MB of buffers.
    await sql`create table filler as select g, md5(g::text) || md5((g + 1)::text) || md5((g + 2)::text) as pad from generate_series(1, 150000) g`.execute(handle!.db)
    await handle!.close()
    const db = await open()
    expect(await show(db, 'shared_buffers')).toMatch(/^(24|32)MB$/)
    await sql`drop table filler`.execute(db)
  })
})

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('embedded database first start', () => {
  it('keeps a pg/ that holds files but no database aside, never deleting it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'al-tuning-'))
    try {
      mkdirSync(join(dataDir, 'pg'))
      writeFileSync(join(dataDir, 'pg', 'note.txt'), 'not a database')
      const handle = await openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger })
      await handle.close()
      const aside = readdirSync(dataDir).filter((entry) => entry.startsWith('pg.incomplete-'))
      expect(aside).toHaveLength(1)
      expect(readFileSync(join(dataDir, aside[0]!, 'note.txt'), 'utf8')).toBe('not a database')
      expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
