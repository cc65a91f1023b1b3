import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { down, up } from '../../src/platform/db/migrations/0018_versions_and_trash.js'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'

/**
 * Migration 0018 on a library from before it: each asset gets its version 1 in `asset_versions` (who
 * pushed it when a user did), and the organization's stored bytes count them. The migration is taken
 * back and run again on this test's own database, with assets inserted in between as 0017 knew them.
 */

let t: TestApp
let acme: Seeded

beforeAll(async () => {
  t = await startTestApp()
  acme = await seedOrganization(t.app, 'Acme')
})
afterAll(() => t.close())

describe('migration 0018 over assets from before it', () => {
  it('gives each asset version 1 with its files, and counts their bytes', async () => {
    const db = t.database.handle.db as unknown as Kysely<unknown>
    await down(db)
    const byUser = '01900000-0000-7000-8000-000000000101'
    const byKey = '01900000-0000-7000-8000-000000000102'
    const insert = (id: string, sha256: string, bytes: number, createdBy: string | null) => sql`
      insert into assets (id, organization_id, mime_type, width, height, byte_size, sha256, blob_key, thumbnail_key, created_by, created_at)
      values (${id}, ${acme.org.id}, 'image/png', 10, 20, ${bytes}, ${sha256}, ${sha256}, ${`${sha256}/thumb.webp`}, ${createdBy}, '2026-01-02T03:04:05Z')`.execute(db)
    await insert(byUser, 'a'.repeat(64), 1000, acme.owner.id)
    await insert(byKey, 'b'.repeat(64), 234, null)

    await up(db)

    const versions = await sql<Record<string, unknown>>`
      select asset_id, version, sha256, blob_key, thumbnail_key, mime_type, width, height, byte_size::int as byte_size, created_at, created_by_kind, created_by_name
      from asset_versions where organization_id = ${acme.org.id} order by asset_id`.execute(db)
    const { name } = (await sql<{ name: string }>`select name from users where id = ${acme.owner.id}`.execute(db)).rows[0]!
    const file = (sha256: string) => ({ sha256, blob_key: sha256, thumbnail_key: `${sha256}/thumb.webp`, mime_type: 'image/png', width: 10, height: 20 })
    expect(versions.rows).toEqual([
      { asset_id: byUser, version: 1, ...file('a'.repeat(64)), byte_size: 1000, created_at: new Date('2026-01-02T03:04:05Z'), created_by_kind: 'user', created_by_name: name },
      { asset_id: byKey, version: 1, ...file('b'.repeat(64)), byte_size: 234, created_at: new Date('2026-01-02T03:04:05Z'), created_by_kind: null, created_by_name: null },
    ])
    const assets = await sql<{ version: number; external_id: string | null }>`select version, external_id from assets where organization_id = ${acme.org.id}`.execute(db)
    expect(assets.rows).toEqual([
      { version: 1, external_id: null },
      { version: 1, external_id: null },
    ])
    const organization = await sql<{ stored: number; trashed: number }>`select stored_byte_count::int as stored, trashed_count as trashed from organizations where id = ${acme.org.id}`.execute(db)
    expect(organization.rows[0]).toEqual({ stored: 1234, trashed: 0 })
  })
})
