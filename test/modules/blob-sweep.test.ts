import { randomBytes, randomUUID } from 'node:crypto'
import { existsSync, linkSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sweepBlobs } from '../../src/modules/assets/blob-sweep.js'
import { FileBlobStore, variantKey } from '../../src/platform/blobs/blob-store.js'
import { FILES_ON_DISK, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { pushAndRead } from '../support/fixtures.js'

const HOUR_MS = 3_600_000

let t: TestApp
let acme: Seeded
let blobs: FileBlobStore

beforeAll(async () => {
  t = await startTestApp({ env: FILES_ON_DISK })
  acme = await seedOrganization(t.app, 'Acme')
  blobs = new FileBlobStore(t.config.blobDir)
})
afterAll(() => t.close())

const fileOf = (key: string) => join(t.config.blobDir, key.slice(0, 2), key.slice(2, 4), key)
const ageFile = (path: string, ms: number) => utimesSync(path, new Date(Date.now() - ms), new Date(Date.now() - ms))
const age = (key: string, ms: number) => ageFile(fileOf(key), ms)
/** Where a write of `key` puts its bytes before linking them into place. */
const temporaryOf = (key: string) => join(dirname(fileOf(key)), `.tmp-${randomUUID()}`)

/** The files a crash between a push's file writes and its commit leaves: an original and its thumbnail. */
async function orphan(): Promise<string[]> {
  const { key } = await blobs.put(randomBytes(64))
  const thumbnail = (await blobs.putAs(variantKey(key, 'thumb.webp'), randomBytes(32))).key
  return [key, thumbnail]
}

describe('the sweep of unreferenced image files', () => {
  it('removes old files no asset refers to, keeps recent ones and every referenced one', async () => {
    const { record: asset } = await pushAndRead(t.app, acme)
    await t.app.services.thumbnails.drain()
    const referenced = [asset.sha256, variantKey(asset.sha256, 'thumb.webp')]
    for (const key of referenced) age(key, 2 * HOUR_MS)

    const old = await orphan()
    for (const key of old) age(key, 2 * HOUR_MS)
    const recent = await orphan()

    expect(await sweepBlobs(t.database.handle.db, blobs, HOUR_MS)).toEqual({ removed: 2, recent: 2 })
    for (const key of old) expect(existsSync(fileOf(key)), key).toBe(false)
    for (const key of [...recent, ...referenced]) expect(existsSync(fileOf(key)), key).toBe(true)
    const original = await t.app.inject({ method: 'GET', url: new URL(asset.original_url).pathname + new URL(asset.original_url).search })
    expect(original.statusCode).toBe(200)

    // Once past the grace period, the recent orphans go too; a second sweep finds nothing left.
    expect(await sweepBlobs(t.database.handle.db, blobs, 0)).toEqual({ removed: 2, recent: 0 })
    expect(await sweepBlobs(t.database.handle.db, blobs, 0)).toEqual({ removed: 0, recent: 0 })
    for (const key of referenced) expect(existsSync(fileOf(key)), key).toBe(true)
  })

  it('keeps the files of an asset deleted while their removal failed only until the sweep', async () => {
    const { record: { sha256 } } = await pushAndRead(t.app, acme)
    await t.app.services.thumbnails.drain()
    // The row goes; its files stay, as when their removal failed after the commit.
    await t.database.handle.db.deleteFrom('assets').where('sha256', '=', sha256).execute()
    await t.database.handle.db.deleteFrom('asset_versions').where('sha256', '=', sha256).execute()
    expect(existsSync(fileOf(sha256))).toBe(true)
    expect((await sweepBlobs(t.database.handle.db, blobs, 0)).removed).toBe(2)
    expect(existsSync(fileOf(sha256))).toBe(false)
  })

  it('removes the temporary files that killed writes left behind once past the grace period, never the blobs they link to', async () => {
    const { record: asset } = await pushAndRead(t.app, acme)
    const originalBytes = readFileSync(fileOf(asset.sha256))

    // Killed after the link: the temporary name is a second hard link of the original.
    const linked = temporaryOf(asset.sha256)
    linkSync(fileOf(asset.sha256), linked)
    // Killed mid-write, beside a blob and in a fan-out directory of its own.
    const partial = temporaryOf(asset.sha256)
    writeFileSync(partial, originalBytes.subarray(0, 10))
    const alone = temporaryOf(randomBytes(32).toString('hex'))
    mkdirSync(dirname(alone), { recursive: true })
    writeFileSync(alone, randomBytes(16))
    for (const path of [linked, partial, alone]) ageFile(path, 2 * HOUR_MS)
    // A write under way: just written.
    const live = temporaryOf(asset.sha256)
    writeFileSync(live, randomBytes(16))

    expect(await sweepBlobs(t.database.handle.db, blobs, HOUR_MS)).toEqual({ removed: 3, recent: 0 })
    for (const path of [linked, partial, alone]) expect(existsSync(path), path).toBe(false)
    expect(existsSync(live)).toBe(true)
    expect(readFileSync(fileOf(asset.sha256)).equals(originalBytes)).toBe(true)
    const original = await t.app.inject({ method: 'GET', url: new URL(asset.original_url).pathname + new URL(asset.original_url).search })
    expect(original.statusCode).toBe(200)
    expect(original.rawPayload.equals(originalBytes)).toBe(true)
  })
})
