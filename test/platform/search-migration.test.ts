import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Migrator, sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { embeddingText } from '../../src/modules/search/embeddings.js'
import { sha256Hex } from '../../src/platform/crypto.js'
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/index.js'
import { migrate } from '../../src/platform/db/migrate.js'
import * as foundation from '../../src/platform/db/migrations/0001_foundation.js'
import * as assets from '../../src/platform/db/migrations/0002_assets.js'
import * as collectionSharing from '../../src/platform/db/migrations/0003_collection_sharing.js'
import { uuidv7 } from '../../src/platform/ids.js'
import { adminQuery, databaseUrl, silentLogger } from '../support/database.js'

/** A database as the previous release left it (migrations 0001-0003), with assets in it, then brought up to date. */
let handle: DatabaseHandle
let dataDir: string
const name = `al_migration_${randomBytes(6).toString('hex')}`

const before = [
  { id: uuidv7(), title: 'Crème brûlée banners', asset_type: 'Photo', client: 'Acme-2', product: null, tags: ['Summer', 'dessert'] },
  { id: uuidv7(), title: '', asset_type: null, client: null, product: null, tags: [] },
]

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'al-migration-'))
  if (process.env.TEST_DATABASE_URL) await adminQuery(`create database ${name}`)
  handle = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL && databaseUrl(name), dataDir, logger: silentLogger })
  const previous = { '0001_foundation': foundation, '0002_assets': assets, '0003_collection_sharing': collectionSharing }
  const { error } = await new Migrator({ db: handle.db, provider: { getMigrations: async () => previous } }).migrateToLatest()
  if (error) throw error
  const org = uuidv7()
  await sql`insert into organizations (id, name, slug) values (${org}, 'Old', 'old')`.execute(handle.db)
  for (const asset of before) {
    await sql`
      insert into assets (id, organization_id, title, asset_type, client, product, mime_type, width, height, byte_size, sha256, blob_key, thumbnail_key)
      values (${asset.id}, ${org}, ${asset.title}, ${asset.asset_type}, ${asset.client}, ${asset.product}, 'image/png', 1, 1, 1, ${asset.id}, 'k', 't')
    `.execute(handle.db)
    for (const tag of asset.tags) {
      const tagId = uuidv7()
      await sql`insert into tags (id, organization_id, name) values (${tagId}, ${org}, ${tag})`.execute(handle.db)
      await sql`insert into asset_tags (asset_id, tag_id) values (${asset.id}, ${tagId})`.execute(handle.db)
    }
  }
  await migrate(handle.db)
})
afterAll(async () => {
  await handle?.close()
  if (process.env.TEST_DATABASE_URL) await adminQuery(`drop database if exists ${name} with (force)`)
  rmSync(dataDir, { recursive: true, force: true })
})

it('rebuilds the full-text column of existing assets: weighted, stemmed, exact and folded', async () => {
  const matches = async (query: string) =>
    (await sql<{ id: string }>`select id from assets where search @@ (phraseto_tsquery('english', ${query}) || phraseto_tsquery('simple', ${query}))`.execute(handle.db)).rows.map((r) => r.id)
  const [asset] = before
  for (const query of ['banner', 'creme brulee', 'acme-2', 'summer', 'photo']) expect(await matches(query), query).toEqual([asset!.id])
  const row = await sql<{ tag_text: string; weights: string }>`select tag_text, search::text as weights from assets where id = ${asset!.id}`.execute(handle.db)
  expect(row.rows[0]!.tag_text).toBe('dessert Summer')
  expect(row.rows[0]!.weights).toContain("'banner':3A")
  expect(row.rows[0]!.weights).toMatch(/'photo':\d+B/)
})

it('queues every existing asset for its first embedding, with the text the service would build', async () => {
  const rows = await handle.db.selectFrom('asset_embeddings').select(['asset_id', 'source_text', 'text_hash', 'next_attempt_at', 'embedded_hash']).execute()
  const byId = new Map(rows.map((row) => [row.asset_id, row]))
  for (const asset of before) {
    const text = embeddingText({ ...asset, tags: [...asset.tags].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())) })
    expect(byId.get(asset.id)).toMatchObject({ source_text: text, text_hash: sha256Hex(text), embedded_hash: null })
  }
  expect(byId.get(before[0]!.id)!.source_text).toBe('Crème brûlée banners\nType: Photo\nClient: Acme-2\nTags: dessert, Summer')
  expect(byId.get(before[0]!.id)!.next_attempt_at).not.toBeNull()
  expect(byId.get(before[1]!.id)!.next_attempt_at).toBeNull()
})
