import { existsSync, readFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/index.js'
import { DataDirectoryLockedError } from '../../src/platform/db/lockfile.js'
import { migrate, pendingMigrations } from '../../src/platform/db/migrate.js'
import { adminQuery, databaseUrl, silentLogger } from '../support/database.js'
import { startTestApp, TESTS_ON_S3, type TestApp } from '../support/app.js'

const onPostgres = Boolean(process.env.TEST_DATABASE_URL)

describe('migrations', () => {
  let dataDir: string
  let dbName: string
  const handles: DatabaseHandle[] = []

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'al-migrate-'))
    dbName = `al_migrate_${process.pid}_${Date.now()}`
    if (onPostgres) await adminQuery(`create database ${dbName}`)
  })
  afterAll(async () => {
    for (const handle of handles) await handle.close()
    if (onPostgres) await adminQuery(`drop database if exists ${dbName} with (force)`)
    rmSync(dataDir, { recursive: true, force: true })
  })

  const open = async () => {
    const handle = await openDatabase({ databaseUrl: onPostgres ? databaseUrl(dbName) : undefined, dataDir, logger: silentLogger })
    handles.push(handle)
    return handle
  }

  it('run once even when two processes start together, and are idempotent afterwards', async () => {
    const first = await open()
    // Two pools stand for two processes on PostgreSQL; the embedded database admits one process, so there it is one pool.
    const second = onPostgres ? await open() : first
    expect(await pendingMigrations(first.db)).toEqual(['0001_foundation', '0002_assets', '0003_collection_sharing', '0004_search', '0005_webhooks', '0006_blob_references', '0007_push_and_list_costs', '0008_library_version', '0009_name_counts', '0010_webhook_health', '0011_member_audit', '0012_created_by', '0013_idempotency_keys', '0014_key_limits', '0015_thumbnail_jobs', '0016_library_changes', '0017_thumbnail_wake', '0018_versions_and_trash', '0019_svg_and_renditions', '0020_figma_imports', '0021_image_analyses', '0022_colour_and_origin_counts', '0023_asset_sort_indexes', '0024_password_resets', '0025_asset_creators', '0026_image_embeddings'])
    const [a, b] = await Promise.all([migrate(first.db), migrate(second.db)])
    expect([...a.applied, ...b.applied]).toEqual(['0001_foundation', '0002_assets', '0003_collection_sharing', '0004_search', '0005_webhooks', '0006_blob_references', '0007_push_and_list_costs', '0008_library_version', '0009_name_counts', '0010_webhook_health', '0011_member_audit', '0012_created_by', '0013_idempotency_keys', '0014_key_limits', '0015_thumbnail_jobs', '0016_library_changes', '0017_thumbnail_wake', '0018_versions_and_trash', '0019_svg_and_renditions', '0020_figma_imports', '0021_image_analyses', '0022_colour_and_origin_counts', '0023_asset_sort_indexes', '0024_password_resets', '0025_asset_creators', '0026_image_embeddings'])
    expect(await pendingMigrations(first.db)).toEqual([])
    expect((await migrate(first.db)).applied).toEqual([])
  })

  it('report pgvector when the server has it, and carry on without it', async () => {
    const handle = handles[0]!
    const available = await sql`select 1 from pg_available_extensions where name = 'vector'`.execute(handle.db)
    const outcome = await migrate(handle.db)
    expect(outcome.vector).toBe(available.rows.length > 0)
    if (!onPostgres) expect(outcome.vector).toBe(true)
  })
})

describe('embedded data directory', () => {
  let dataDir: string
  let handle: DatabaseHandle

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'al-lock-'))
    handle = await openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger })
  })
  afterAll(async () => {
    await handle.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('refuses a second opener with a clear message while the first holds it', async () => {
    const second = openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger })
    await expect(second).rejects.toBeInstanceOf(DataDirectoryLockedError)
    await expect(second).rejects.toThrow(/already in use by process \d+/)
    expect((await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows[0]!.one).toBe(1)
  })

  it.each([
    ['emptied', (lock: string) => writeFileSync(lock, '')],
    ['filled with garbage', (lock: string) => writeFileSync(lock, 'not a pid \u0000\u0001')],
    ['deleted', (lock: string) => rmSync(lock)],
    ['naming a dead process', (lock: string) => writeFileSync(lock, '999999999')],
  ])('refuses a second opener while the first runs, with its lock file %s', async (_, tamper) => {
    const lock = join(dataDir, 'asset-library.lock')
    tamper(lock)
    const second = openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger })
    await expect(second).rejects.toThrow(/already in use by (another process|process \d+)/)
    // The first keeps serving: the refusal neither took the directory nor disturbed its database.
    expect((await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows[0]!.one).toBe(1)
    await sql`create table if not exists tampered (v int)`.execute(handle.db)
    await sql`insert into tampered values (1)`.execute(handle.db)
    // Put a proper lock back for the next case: close and reopen.
    await handle.close()
    rmSync(lock, { force: true })
    handle = await openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger })
  })

  it('removes on close only a lock it still owns', async () => {
    const lock = join(dataDir, 'asset-library.lock')
    const theirs = JSON.stringify({ pid: 999999999, token: 'someone-else' })
    writeFileSync(lock, theirs)
    await handle.close()
    expect(readFileSync(lock, 'utf8')).toBe(theirs)
    rmSync(lock)
    handle = await openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger })
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid, token: expect.stringMatching(/^[0-9a-f]{32}$/) })
  })

  it('refuses a lock file that names no process when nothing serves the directory, and says what to do', async () => {
    await handle.close()
    const lock = join(dataDir, 'asset-library.lock')
    writeFileSync(lock, 'garbage')
    await expect(openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger })).rejects.toThrow(/names no process.*delete that file/)
    rmSync(lock)
    handle = await openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger })
  })

  it('takes over a lock left by a dead process and a stale socket file', async () => {
    await handle.close()
    expect(existsSync(join(dataDir, 'asset-library.lock'))).toBe(false)
    writeFileSync(join(dataDir, 'asset-library.lock'), '999999999')
    mkdirSync(join(dataDir, 'run'), { recursive: true })
    writeFileSync(join(dataDir, 'run', '.s.PGSQL.5432'), 'stale')
    handle = await openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger })
    expect((await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows[0]!.one).toBe(1)
  })

  it('vacuums and analyzes on a schedule, since PGlite has no autovacuum', async () => {
    await handle.close()
    handle = await openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger, vacuumIntervalMs: 50 })
    await sql`create table if not exists vacuumed (v int)`.execute(handle.db)
    await sql`insert into vacuumed select generate_series(1, 100)`.execute(handle.db)
    await expect
      .poll(async () => (await sql<{ at: Date | null }>`select last_vacuum as at from pg_stat_user_tables where relname = 'vacuumed'`.execute(handle.db)).rows[0]?.at ?? null, { timeout: 10_000 })
      .not.toBeNull()
  })

  it('takes over a lock naming its own pid that it does not hold (a container restarted as pid 1)', async () => {
    await handle.close()
    writeFileSync(join(dataDir, 'asset-library.lock'), String(process.pid))
    handle = await openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger })
    expect((await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows[0]!.one).toBe(1)
  })

  it('keeps serving after failed statements and a rolled-back transaction', async () => {
    await expect(sql`select * from no_such_table`.execute(handle.db)).rejects.toThrow(/no_such_table/)
    await expect(sql`select 1/0`.execute(handle.db)).rejects.toThrow(/division by zero/)
    await expect(
      handle.db.transaction().execute(async (tx) => {
        await sql`create table half_done (v int)`.execute(tx)
        await sql`insert into half_done values ('not a number')`.execute(tx)
      }),
    ).rejects.toThrow()
    const parallel = await Promise.all([1, 2, 3].map((n) => sql<{ n: number }>`select ${n}::int as n`.execute(handle.db)))
    expect(parallel.map((r) => r.rows[0]!.n)).toEqual([1, 2, 3])
    expect((await sql`select 1 from pg_tables where tablename = 'half_done'`.execute(handle.db)).rows).toEqual([])
  })

  it('keeps data across a restart', async () => {
    await sql`create table if not exists kept (v text)`.execute(handle.db)
    await sql`insert into kept values ('still here')`.execute(handle.db)
    await handle.close()
    handle = await openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger })
    const rows = await sql<{ v: string }>`select v from kept`.execute(handle.db)
    expect(rows.rows).toEqual([{ v: 'still here' }])
  })
})

describe('health endpoints', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp()
  })
  afterAll(() => t.close())

  it('GET /health answers while the process runs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'ok' })
  })

  it('GET /ready reports the database, migrations, the blob store, pgvector, the search mode, who keeps the statistics fresh and which derivations this process runs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ready' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      status: 'ready',
      database: { kind: onPostgres ? 'postgres' : 'embedded', reachable: true },
      storage: { kind: TESTS_ON_S3 ? 's3' : 'file', reachable: true },
      migrations: { pending: [] },
      pgvector: expect.any(Boolean),
      search: { mode: 'text', reason: 'no_provider' },
      statistics: { autovacuum: expect.any(Boolean), analyzer: expect.any(Boolean), detail: expect.any(String) },
      derivations: [
        { name: 'thumbnails', runs_here: false },
        { name: 'embeddings', runs_here: false },
        { name: 'image_embeddings', runs_here: false },
        { name: 'perceptual_hash', runs_here: false },
        { name: 'palette', runs_here: false },
        { name: 'metadata', runs_here: false },
        { name: 'provenance', runs_here: false },
      ],
    })
    await t.app.services.thumbnails.start()
    try {
      expect((await t.app.inject({ method: 'GET', url: '/ready' })).json().derivations[0]).toEqual({ name: 'thumbnails', runs_here: true })
    } finally {
      await t.app.services.thumbnails.stop(1_000)
    }
  })

  it('GET /ready is 503 when the database is gone', async () => {
    const other = await startTestApp()
    await other.database.handle.close()
    const res = await other.app.inject({ method: 'GET', url: '/ready' })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toMatchObject({ status: 'database_unreachable', database: { reachable: false } })
    expect(JSON.stringify(res.json())).not.toMatch(/ECONN|socket|127\.0\.0\.1/)
    await other.close()
  })
})
