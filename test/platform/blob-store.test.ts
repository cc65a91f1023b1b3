import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import * as nodeFs from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer, type Server } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  BlobStoreUnavailableError,
  FileBlobStore,
  InvalidBlobKeyError,
  RangeNotSatisfiableError,
  renditionKey,
  variantKey,
  type BlobFs,
  type BlobStore,
  type BlobStream,
} from '../../src/platform/blobs/blob-store.js'
import { S3BlobStore } from '../../src/platform/blobs/s3-blob-store.js'
import { createTestBucket, s3Config, startS3Server, type S3Server } from '../support/s3-server.js'

let root: string
let store: FileBlobStore

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'blobs-'))
  store = new FileBlobStore(join(root, 'blobs'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/** Every file under the store, relative to it, temporary ones included. */
const files = () => readdirSync(join(root, 'blobs'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name)

const failure = (code: string) => Object.assign(new Error(`simulated ${code}`), { code })

describe('FileBlobStore', () => {
  it('lets exactly one of many concurrent puts of the same bytes create the file', async () => {
    const bytes = randomBytes(2 * 1024 * 1024)
    const results = await Promise.all(Array.from({ length: 10 }, () => store.put(Buffer.from(bytes))))
    expect(new Set(results.map((r) => r.key))).toEqual(new Set([sha256(bytes)]))
    expect(results.filter((r) => r.created)).toHaveLength(1)
    expect(files()).toEqual([sha256(bytes)])
    expect((await store.get(sha256(bytes)))?.equals(bytes)).toBe(true)
  })

  it('stores variants beside the original and refuses a bare hash through putAs', async () => {
    const { sha256: hash } = await store.put(Buffer.from('original'))
    const key = variantKey(hash, 'thumb.webp')
    expect(key).toBe(`${hash}.thumb.webp`)
    expect(await store.putAs(key, Buffer.from('thumbnail'))).toEqual({ key, created: true })
    expect(await store.putAs(key, Buffer.from('thumbnail'))).toEqual({ key, created: false })
    expect((await store.get(key))?.toString()).toBe('thumbnail')
    expect(files().sort()).toEqual([hash, key])
    await expect(store.putAs(sha256(Buffer.from('other')), Buffer.from('not those bytes'))).rejects.toThrow(InvalidBlobKeyError)
    expect(() => variantKey(hash, '../x')).toThrow(InvalidBlobKeyError)
    expect(() => variantKey('abc', 'thumb')).toThrow(InvalidBlobKeyError)
  })

  it('keeps renditions under renditions/ab/cd/, and removes the temporary files of their interrupted writes too', async () => {
    const hash = sha256(Buffer.from('original'))
    const key = renditionKey(hash, 'w64-contain.png')
    await store.putAs(key, Buffer.from('rendition'))
    const dir = join(root, 'blobs', 'renditions', hash.slice(0, 2), hash.slice(2, 4))
    expect(readdirSync(dir)).toEqual([`${hash}.w64-contain.png`])
    writeFileSync(join(dir, '.tmp-interrupted'), 'half a rendition')
    expect(await store.removeUnfinishedWrites(new Date(Date.now() + 60_000))).toBe(1)
    expect(readdirSync(dir)).toEqual([`${hash}.w64-contain.png`])
  })

  it('refuses keys that could name anything outside the store', async () => {
    const outside = join(root, 'outside.txt')
    writeFileSync(outside, 'keep me')
    const hash = sha256(Buffer.from('x'))
    const keys = [
      '',
      '../outside.txt',
      '../../outside.txt',
      outside,
      `${hash}/../../../../outside.txt`,
      `${hash}.thumb/../../x`,
      `${hash}..`,
      `${hash}.`,
      `${hash}.thumb\0`,
      hash.toUpperCase(),
      hash.slice(0, 63),
      `.tmp-${hash}`,
      'ab/cd/' + hash,
    ]
    for (const key of keys) {
      await expect(store.get(key), key).rejects.toThrow(InvalidBlobKeyError)
      await expect(store.stream(key), key).rejects.toThrow(InvalidBlobKeyError)
      await expect(store.exists(key), key).rejects.toThrow(InvalidBlobKeyError)
      await expect(store.delete(key), key).rejects.toThrow(InvalidBlobKeyError)
      await expect(store.putAs(key, Buffer.from('evil')), key).rejects.toThrow(InvalidBlobKeyError)
    }
    await expect(nodeFs.readFile(outside, 'utf8')).resolves.toBe('keep me')
  })

  it('finds no blob where a file stands in place of its directory, deletes it as gone, and refuses to write it', async () => {
    const bytes = randomBytes(100)
    const hash = sha256(bytes)
    await nodeFs.mkdir(join(root, 'blobs', hash.slice(0, 2)), { recursive: true })
    writeFileSync(join(root, 'blobs', hash.slice(0, 2), hash.slice(2, 4)), 'not a directory')
    expect(await store.exists(hash)).toBe(false)
    expect(await store.get(hash)).toBeNull()
    expect(await store.stream(hash)).toBeNull()
    await expect(store.delete(hash)).resolves.toBeUndefined()
    await expect(store.put(bytes)).rejects.toMatchObject({ code: expect.stringMatching(/^(EEXIST|ENOTDIR)$/) })
  })

  it('leaves no temporary file when a write fails half way', async () => {
    const fs: BlobFs = {
      ...nodeFs,
      writeFile: async (file, data, options) => {
        // Disk full after a partial write: a temporary file with some bytes exists.
        await nodeFs.writeFile(file, (data as Buffer).subarray(0, 10), options)
        throw failure('ENOSPC')
      },
    }
    const failing = new FileBlobStore(join(root, 'blobs'), fs)
    const bytes = randomBytes(1000)
    await expect(failing.put(bytes)).rejects.toMatchObject({ code: 'ENOSPC' })
    expect(files()).toEqual([])
    expect(await store.exists(sha256(bytes))).toBe(false)
  })

  it('leaves no temporary file when linking into place fails', async () => {
    const failing = new FileBlobStore(join(root, 'blobs'), { ...nodeFs, link: async () => Promise.reject(failure('EIO')) })
    await expect(failing.put(Buffer.from('x'))).rejects.toMatchObject({ code: 'EIO' })
    expect(files()).toEqual([])
  })

  it('falls back to rename on filesystems without hard links', async () => {
    const noLinks = new FileBlobStore(join(root, 'blobs'), { ...nodeFs, link: async () => Promise.reject(failure('EPERM')) })
    const bytes = Buffer.from('on FAT')
    expect(await noLinks.put(bytes)).toMatchObject({ created: true })
    expect(await noLinks.put(bytes)).toMatchObject({ created: false })
    expect(files()).toEqual([sha256(bytes)])
    expect(await noLinks.get(sha256(bytes))).toEqual(bytes)
  })
})

let s3: S3Server
beforeAll(async () => {
  s3 = await startS3Server()
})
afterAll(() => s3.close())

/** Each test gets an empty store: a directory of its own, or a bucket of its own. */
const STORES: Array<[string, () => Promise<BlobStore>]> = [
  ['files', async () => new FileBlobStore(join(root, 'blobs'))],
  ['S3', async () => new S3BlobStore(s3Config(s3.endpoint, await createTestBucket(s3.endpoint), { prefix: 'library/' }))],
]

async function readAll(blob: BlobStream | null): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of blob!.body) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

const keysOf = async (blobs: BlobStore) => {
  const keys: string[] = []
  for await (const blob of blobs.list()) keys.push(blob.key)
  return keys.sort()
}

describe.each(STORES)('the blob store contract, on %s', (_name, open) => {
  let blobs: BlobStore
  beforeEach(async () => {
    blobs = await open()
    await blobs.checkReachable()
  })
  afterEach(() => blobs.close?.())

  it('stores bytes under their SHA-256 and reads back exactly the bytes written', async () => {
    // Large enough for several chunks each way: a store that keeps transfer framing in the object fails here.
    const bytes = randomBytes(3 * 1024 * 1024 + 17)
    const hash = sha256(bytes)
    expect(await blobs.put(bytes)).toEqual({ key: hash, sha256: hash, created: true })
    expect(await blobs.exists(hash)).toBe(true)
    expect((await blobs.get(hash))!.equals(bytes)).toBe(true) // toEqual walks big buffers byte by byte
    const streamed = await blobs.stream(hash)
    expect(streamed).toMatchObject({ size: bytes.length })
    expect(streamed!.modifiedAt.getTime()).toBeGreaterThan(Date.now() - 60_000)
    expect((await readAll(streamed)).equals(bytes)).toBe(true)
    expect(await keysOf(blobs)).toEqual([hash])

    await blobs.delete(hash)
    expect(await blobs.exists(hash)).toBe(false)
    expect(await blobs.get(hash)).toBeNull()
    expect(await blobs.stream(hash)).toBeNull()
    await expect(blobs.delete(hash)).resolves.toBeUndefined()
    expect(await keysOf(blobs)).toEqual([])
  })

  it('puts the same bytes once: the second put reports created: false, and concurrent puts leave one intact blob', async () => {
    const bytes = randomBytes(512 * 1024)
    const first = await blobs.put(bytes)
    expect(await blobs.put(Buffer.from(bytes))).toEqual({ ...first, created: false })
    const other = randomBytes(512 * 1024)
    const results = await Promise.all(Array.from({ length: 6 }, () => blobs.put(Buffer.from(other))))
    expect(new Set(results.map((r) => r.key))).toEqual(new Set([sha256(other)]))
    expect(results.some((r) => r.created)).toBe(true)
    expect((await blobs.get(sha256(other)))!.equals(other)).toBe(true)
    expect(await keysOf(blobs)).toEqual([first.key, sha256(other)].sort())
  })

  it('stores variants beside their original, refuses a bare hash through putAs and keys that name no blob', async () => {
    const { sha256: hash } = await blobs.put(Buffer.from('original'))
    const key = variantKey(hash, 'thumb.webp')
    expect(await blobs.putAs(key, Buffer.from('thumbnail'))).toEqual({ key, created: true })
    expect(await blobs.putAs(key, Buffer.from('thumbnail'))).toEqual({ key, created: false })
    expect((await blobs.get(key))?.toString()).toBe('thumbnail')
    expect(await keysOf(blobs)).toEqual([hash, key].sort())
    await expect(blobs.putAs(sha256(Buffer.from('other')), Buffer.from('not those bytes'))).rejects.toThrow(InvalidBlobKeyError)
    for (const bad of ['../x', `${hash}/x`, hash.toUpperCase(), `library/${hash}`, '']) {
      await expect(blobs.get(bad), bad).rejects.toThrow(InvalidBlobKeyError)
      await expect(blobs.delete(bad), bad).rejects.toThrow(InvalidBlobKeyError)
    }
  })

  it('stores renditions under renditions/, leaves them out of the listing, and refuses rendition keys that name anything else', async () => {
    const { sha256: hash } = await blobs.put(Buffer.from('original'))
    const key = renditionKey(hash, 'w1200-contain-q80.webp')
    expect(key).toBe(`renditions/${hash}.w1200-contain-q80.webp`)
    expect(await blobs.putAs(key, Buffer.from('rendition'))).toEqual({ key, created: true })
    expect(await blobs.putAs(key, Buffer.from('rendition'))).toEqual({ key, created: false })
    expect(await blobs.exists(key)).toBe(true)
    expect((await readAll(await blobs.stream(key, { start: 0, end: 3 }))).toString()).toBe('rend')
    // The sweep of unreferenced files walks the listing: renditions are the renditions module's to remove.
    expect(await keysOf(blobs)).toEqual([hash])
    await blobs.delete(key)
    expect(await blobs.exists(key)).toBe(false)
    expect(() => renditionKey(hash, '../x.webp')).toThrow(InvalidBlobKeyError)
    expect(() => renditionKey(hash, 'w1/x.webp')).toThrow(InvalidBlobKeyError)
    for (const bad of [`renditions/${hash}`, `renditions/../${hash}.w1-contain.png`, `renditions/${hash}.w1-contain.png/x`]) {
      await expect(blobs.get(bad), bad).rejects.toThrow(InvalidBlobKeyError)
    }
  })

  it('streams byte ranges, and refuses one past the end with the size', async () => {
    const bytes = randomBytes(10_000)
    const { key } = await blobs.put(bytes)
    const cases: Array<[Parameters<BlobStore['stream']>[1], number, number]> = [
      [{ start: 100, end: 199 }, 100, 199],
      [{ start: 9_990 }, 9_990, 9_999],
      [{ start: 5, end: 50_000 }, 5, 9_999],
      [{ suffix: 10 }, 9_990, 9_999],
      [{ suffix: 20_000 }, 0, 9_999],
    ]
    for (const [range, start, end] of cases) {
      const blob = await blobs.stream(key, range)
      expect(blob, JSON.stringify(range)).toMatchObject({ size: 10_000, range: { start, end } })
      expect((await readAll(blob)).equals(bytes.subarray(start, end + 1)), JSON.stringify(range)).toBe(true)
    }
    for (const range of [{ start: 10_000 }, { suffix: 0 }]) {
      await expect(blobs.stream(key, range), JSON.stringify(range)).rejects.toThrow(RangeNotSatisfiableError)
      await expect(blobs.stream(key, range)).rejects.toMatchObject({ size: 10_000 })
    }
  })

  it('recreates a blob that went missing, so a re-push heals a row without its file', async () => {
    const bytes = Buffer.from('heal me')
    const { key } = await blobs.put(bytes)
    await blobs.delete(key)
    expect(await blobs.put(bytes)).toMatchObject({ key, created: true })
    expect(await blobs.get(key)).toEqual(bytes)
  })
})

describe('S3BlobStore', () => {
  it('lists more blobs than one page holds, each once, and only those under its prefix', async () => {
    const bucket = await createTestBucket(s3.endpoint)
    const blobs = new S3BlobStore(s3Config(s3.endpoint, bucket, { prefix: 'one/' }), 7)
    const neighbour = new S3BlobStore(s3Config(s3.endpoint, bucket, { prefix: 'two/' }))
    try {
      const written = await Promise.all(Array.from({ length: 30 }, async () => (await blobs.put(randomBytes(8))).key))
      await neighbour.put(Buffer.from('not one of them'))
      expect(await keysOf(blobs)).toEqual(written.sort())
    } finally {
      blobs.close()
      neighbour.close()
    }
  })

  it('names a missing bucket, and refused credentials, in one line', async () => {
    const missing = new S3BlobStore(s3Config(s3.endpoint, 'no-such-bucket'))
    // s3rver checks the access key id only, not the signature: an unknown key id stands for wrong credentials.
    const refused = new S3BlobStore(s3Config(s3.endpoint, await createTestBucket(s3.endpoint), { credentials: { accessKeyId: 'WRONG', secretAccessKey: 'wrong' } }))
    try {
      const missingError = await missing.checkReachable().catch((error: unknown) => error)
      expect(missingError).toBeInstanceOf(BlobStoreUnavailableError)
      expect((missingError as Error).message).toBe(`S3 bucket no-such-bucket at ${s3.endpoint} does not exist: create it, or correct S3_BUCKET (or S3_ENDPOINT)`)
      const refusedError = (await refused.checkReachable().catch((error: unknown) => error)) as Error
      expect(refusedError).toBeInstanceOf(BlobStoreUnavailableError)
      expect(refusedError.message).toMatch(/refused our credentials \(HTTP 403\): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/)
      expect(refusedError.message).not.toContain('wrong')
      await expect(refused.put(Buffer.from('x'))).rejects.toThrow(BlobStoreUnavailableError)
    } finally {
      missing.close()
      refused.close()
    }
  })

  it('fails every call with BlobStoreUnavailableError when the server is down, or answers nothing, within its timeout', async () => {
    const silent: Server = createServer(() => undefined)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number }
        probe.close(() => resolve(port))
      })
    })
    const down = new S3BlobStore(s3Config(`http://127.0.0.1:${closedPort}`, 'library'))
    const hung = new S3BlobStore(s3Config(`http://127.0.0.1:${(silent.address() as { port: number }).port}`, 'library', { timeoutMs: 300, maxAttempts: 1 }))
    const key = sha256(Buffer.from('anything'))
    try {
      for (const blobs of [down, hung]) {
        const started = Date.now()
        await expect(blobs.put(Buffer.from('anything'))).rejects.toThrow(BlobStoreUnavailableError)
        await expect(blobs.stream(key)).rejects.toThrow(BlobStoreUnavailableError)
        await expect(blobs.delete(key)).rejects.toThrow(BlobStoreUnavailableError)
        await expect(keysOf(blobs)).rejects.toThrow(BlobStoreUnavailableError)
        await expect(blobs.checkReachable()).rejects.toThrow(/cannot be reached/)
        expect(Date.now() - started).toBeLessThan(10_000)
      }
    } finally {
      down.close()
      hung.close()
      silent.close()
    }
  })
})
