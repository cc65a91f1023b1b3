import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import * as nodeFs from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FileBlobStore, InvalidBlobKeyError, variantKey, type BlobFs } from '../../src/platform/blobs/blob-store.js'

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
  it('stores bytes under their SHA-256 in a fan-out directory and reads them back', async () => {
    const bytes = randomBytes(1000)
    const hash = sha256(bytes)
    expect(await store.put(bytes)).toEqual({ key: hash, sha256: hash, created: true })
    expect(existsSync(join(root, 'blobs', hash.slice(0, 2), hash.slice(2, 4), hash))).toBe(true)
    expect(await store.exists(hash)).toBe(true)
    expect(await store.get(hash)).toEqual(bytes)

    const streamed = await store.stream(hash)
    expect(streamed?.size).toBe(1000)
    streamed!.body.destroy()

    await store.delete(hash)
    expect(await store.exists(hash)).toBe(false)
    expect(await store.get(hash)).toBeNull()
    expect(await store.stream(hash)).toBeNull()
    await expect(store.delete(hash)).resolves.toBeUndefined()
  })

  it('streams the exact bytes', async () => {
    const bytes = randomBytes(256 * 1024)
    const { key } = await store.put(bytes)
    const { body } = (await store.stream(key))!
    const chunks: Buffer[] = []
    for await (const chunk of body) chunks.push(chunk as Buffer)
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true) // toEqual walks big buffers byte by byte
  })

  it('puts the same bytes once: the second put reports created: false', async () => {
    const bytes = Buffer.from('same bytes')
    const first = await store.put(bytes)
    const second = await store.put(Buffer.from('same bytes'))
    expect(first.created).toBe(true)
    expect(second).toEqual({ ...first, created: false })
    expect(files()).toEqual([first.key])
  })

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

  it('recreates a file that went missing, so a re-push heals a row without its blob', async () => {
    const bytes = Buffer.from('heal me')
    const { key } = await store.put(bytes)
    await store.delete(key)
    expect(await store.put(bytes)).toMatchObject({ key, created: true })
    expect(await store.get(key)).toEqual(bytes)
  })
})
