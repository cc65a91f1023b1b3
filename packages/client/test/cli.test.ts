import { spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { sql } from 'kysely'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { drainDerivations, seedOrganization, startTestApp, type Seeded, type TestApp } from '../../../test/support/app.js'
import { noisePng, solid, uniquePng } from '../../../test/support/images.js'
import { startServer, type TestServer } from '../../../test/support/http-server.js'
import { digitalSourceType, imageWithXmp, xmpDeclaring } from '../../../test/support/provenance.js'
import { claimBy, endLease, otherProcessLease } from '../../../test/support/process-leases.js'
import { waitFor } from '../../../test/support/wait.js'
import { createClient } from '../src/node.js'
import { derivationNamed } from '../../../src/platform/background/derivation.js'
import { scenePng } from '../../../test/support/scenes.js'

// Each run is a real process that tsx compiles at start: seconds apiece on a shared 2-core machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })

const CLI = [process.execPath, '--import', 'tsx', 'packages/client/src/cli/main.ts']

type Hook = (request: IncomingMessage, response: ServerResponse) => 'pass' | 'handled' | Promise<'pass' | 'handled'>

/** The real app on a socket, seeing every request first: counts them, and lets a test hold or drop one. */
interface Library {
  t: TestApp
  url: string
  acme: Seeded
  requests: string[]
  hook: Hook | undefined
  socket: Server
}

let library: Library
let scratch: string
const children: ChildProcess[] = []

beforeAll(async () => {
  library = await startLibrary()
  scratch = mkdtempSync(join(tmpdir(), 'client-cli-'))
})

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL')
  await stopLibrary(library)
  rmSync(scratch, { recursive: true, force: true })
})

async function stopLibrary(served: Library): Promise<void> {
  served.socket.closeAllConnections()
  await new Promise<void>((resolve) => served.socket.close(() => resolve()))
  await served.t.close()
}

async function startLibrary(env: Record<string, string> = {}): Promise<Library> {
  const socket = createServer()
  await new Promise<void>((resolve) => socket.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(socket.address() as AddressInfo).port}`
  const t = await startTestApp({ env: { PUBLIC_BASE_URL: url, ...env } })
  const acme = await seedOrganization(t.app, 'Acme Design')
  // As `serve` runs it: a push reports the near-duplicates the server finds once it has hashed the pictures.
  await derivationNamed(t.app.services.derivations, 'perceptual_hash')!.start()
  const served: Library = { t, url, acme, requests: [], hook: undefined, socket }
  socket.on('request', async (request, response) => {
    served.requests.push(`${request.method} ${request.url}`)
    if (served.hook && (await served.hook(request, response)) === 'handled') return
    t.app.routing(request, response)
  })
  return served
}

const pushesSince = (mark: number) => library.requests.slice(mark).filter((line) => line === 'POST /api/v1/assets').length

interface Run {
  code: number | null
  stdout: string
  stderr: string
  events: Array<Record<string, unknown>>
}

function startCli(args: string[], env: Record<string, string> = {}): { child: ChildProcess; done: Promise<Run>; stdout: () => string } {
  const child = spawn(CLI[0]!, [...CLI.slice(1), ...args], {
    env: { ...process.env, ASSET_LIBRARY_URL: library.url, ASSET_LIBRARY_KEY: library.acme.writeKey, XDG_CACHE_HOME: join(scratch, 'cache'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk))
  const done = new Promise<Run>((resolve) =>
    child.once('exit', (code) =>
      resolve({
        code,
        stdout,
        stderr,
        events: stdout
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      }),
    ),
  )
  return { child, done, stdout: () => stdout }
}

const cli = (args: string[], env?: Record<string, string>) => startCli(args, env).done

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

function folder(name: string): string {
  const path = join(scratch, name)
  mkdirSync(path, { recursive: true })
  return path
}

/** Each file's event, by path relative to `root`. */
function byPath(run: Run, root: string): Record<string, Record<string, unknown>> {
  return Object.fromEntries(run.events.filter((event) => event.event !== 'summary' && event.event !== 'near_duplicates').map((event) => [String(event.path).slice(root.length + 1), event]))
}

const summaryOf = (run: Run) => run.events.find((event) => event.event === 'summary')!

const asRoot = process.getuid?.() === 0

describe('push', () => {
  it('pushes .svg files: a logo is pushed as image/svg+xml, an .svgz is skipped, and one with a script fails with the server\u2019s reason', async () => {
    const root = folder('vectors')
    const logo = '<?xml version="1.0" encoding="UTF-8"?>\n<!-- exported -->\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 32"><title>Vector mark</title><rect width="64" height="32"/></svg>'
    writeFileSync(join(root, 'logo.svg'), logo)
    writeFileSync(join(root, 'icon.svgz'), gzipSync(logo))
    writeFileSync(join(root, 'hostile.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')

    const run = await cli(['push', root, '--json'])
    const events = byPath(run, root)
    expect(events['logo.svg']).toMatchObject({ event: 'pushed' })
    expect(events['icon.svgz']).toMatchObject({ event: 'skipped', reason: 'gzip-compressed (an .svgz is not accepted: send the SVG uncompressed)' })
    expect(events['hostile.svg']).toMatchObject({ event: 'failed', reason: expect.stringContaining('<script>') })
    const client = createClient({ baseUrl: library.url, apiKey: library.acme.readKey })
    expect(await client.assets.get(String(events['logo.svg']!.asset_id))).toMatchObject({ mime_type: 'image/svg+xml', width: 64, height: 32 })
  })

  it('reports the near-duplicates the server finds among what it pushed: a line each, an NDJSON event with --json', async () => {
    const root = folder('near')
    const scene = await scenePng(11)
    writeFileSync(join(root, 'poster.png'), scene)
    const first = await cli(['push', root, '--json'])
    expect(first.code, first.stderr).toBe(0)
    const posterId = byPath(first, root)['poster.png']!.asset_id
    // Only files with near-duplicates are reported.
    expect(first.events.filter((event) => event.event === 'near_duplicates')).toEqual([])
    writeFileSync(join(root, 'poster.jpg'), await sharp(scene).jpeg({ quality: 70 }).toBuffer())
    const second = await cli(['push', join(root, 'poster.jpg'), '--json'])
    expect(second.code, second.stderr).toBe(0)
    const copyId = second.events.find((event) => event.event === 'pushed')!.asset_id
    expect(second.events.find((event) => event.event === 'near_duplicates')).toEqual({
      event: 'near_duplicates',
      path: join(root, 'poster.jpg'),
      asset_id: copyId,
      near_duplicates: [{ asset_id: posterId, distance: expect.any(Number) }],
    })
    writeFileSync(join(root, 'poster.webp'), await sharp(scene).webp().toBuffer())
    const text = await cli(['push', join(root, 'poster.webp')])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toMatch(new RegExp(`near-dup +${join(root, 'poster.webp')}: near-duplicate of (${posterId}|${copyId}) \\(distance \\d\\)`))
  })

  it('pushes the images of a folder by their bytes, skips the rest with a reason, survives a symlink loop, and a re-run reads nothing and pushes nothing', async () => {
    const root = folder('shoot')
    const png = await uniquePng()
    const jpegNamedTxt = await solid(8, 8, '#aa0000').jpeg().toBuffer()
    const nested = await uniquePng()
    const unreadable = await uniquePng()
    writeFileSync(join(root, 'logo.png'), png)
    writeFileSync(join(root, 'photo.txt'), jpegNamedTxt)
    writeFileSync(join(root, 'notes.png'), 'not an image at all, whatever the name says')
    writeFileSync(join(root, 'empty.jpg'), '')
    mkdirSync(join(root, 'sub'))
    writeFileSync(join(root, 'sub', 'inner.png'), nested)
    symlinkSync('..', join(root, 'sub', 'loop'))
    symlinkSync(join(root, 'nowhere.png'), join(root, 'dangling.png'))
    writeFileSync(join(root, 'locked.png'), unreadable)
    chmodSync(join(root, 'locked.png'), 0o000)
    // Whole seconds, so that the test can put the same mtime back after changing a file's bytes.
    const shotAt = new Date('2026-03-01T10:00:00Z')
    for (const name of ['logo.png', 'photo.txt', 'sub/inner.png']) utimesSync(join(root, name), shotAt, shotAt)

    const mark = library.requests.length
    const first = await cli(['push', root, '--json', '--tag', 'shoot', '--tag', 'spring', '--human', '--client', 'Initech', '--type', 'photo'])
    const events = byPath(first, root)
    expect(events['logo.png']).toMatchObject({ event: 'pushed', reason: null })
    expect(events['photo.txt']).toMatchObject({ event: 'pushed' })
    expect(events['sub/inner.png']).toMatchObject({ event: 'pushed' })
    expect(events['notes.png']).toMatchObject({ event: 'skipped', asset_id: null, reason: expect.stringContaining('not an image') })
    expect(events['empty.jpg']).toMatchObject({ event: 'skipped', reason: 'empty file (0 bytes)' })
    expect(events['sub/loop']).toMatchObject({ event: 'skipped', reason: expect.stringContaining('already walked') })
    expect(events['dangling.png']).toMatchObject({ event: 'skipped', reason: expect.stringContaining('ENOENT') })
    // Root reads a file whatever its mode says: there the locked file is simply pushed.
    if (asRoot) expect(events['locked.png']).toMatchObject({ event: 'pushed' })
    else expect(events['locked.png']).toMatchObject({ event: 'failed', reason: expect.stringContaining('EACCES') })
    expect(first.code).toBe(asRoot ? 0 : 1)
    expect(summaryOf(first)).toMatchObject({ files: 8, pushed: asRoot ? 4 : 3, skipped: 4, failed: asRoot ? 0 : 1, pending: 0 })

    const client = createClient({ baseUrl: library.url, apiKey: library.acme.readKey })
    const asset = await client.assets.get(String(events['photo.txt']!.asset_id))
    expect(asset).toMatchObject({ title: 'photo', mime_type: 'image/jpeg', client: 'Initech', asset_type: 'Photo', created_by_ai: false, sha256: sha256(jpegNamedTxt) })
    expect([...asset.tags].sort()).toEqual(['shoot', 'spring'])
    expect(pushesSince(mark)).toBe(asRoot ? 4 : 3)

    // Same size and mtime, other bytes: a run that read a file would find them new (or no image at all).
    for (const name of ['logo.png', 'photo.txt', 'sub/inner.png']) {
      const path = join(root, name)
      writeFileSync(path, Buffer.alloc(statSync(path).size, 7))
      utimesSync(path, shotAt, shotAt)
    }
    const again = await cli(['push', root, '--json'])
    const second = byPath(again, root)
    expect(second['logo.png']).toMatchObject({ event: 'duplicate', asset_id: events['logo.png']!.asset_id })
    expect(second['photo.txt']).toMatchObject({ event: 'duplicate', asset_id: events['photo.txt']!.asset_id })
    expect(summaryOf(again)).toMatchObject({ pushed: 0, duplicate: asRoot ? 4 : 3, bytes_read: 0, bytes_pushed: 0 })
    expect(pushesSince(mark)).toBe(asRoot ? 4 : 3)
  })

  it('--dry-run pushes nothing and says what it would push, a copy once (a glob, less --ignore); check says which files the library has', async () => {
    const root = folder('dry')
    const known = await uniquePng()
    await createClient({ baseUrl: library.url, apiKey: library.acme.writeKey }).assets.push(known)
    writeFileSync(join(root, 'known.png'), known)
    const fresh = await uniquePng()
    writeFileSync(join(root, 'new.png'), fresh)
    mkdirSync(join(root, 'sub'))
    writeFileSync(join(root, 'sub', 'copy.png'), fresh)
    const mark = library.requests.length

    const dry = await cli(['push', root, '--dry-run', '--json'])
    expect(dry.code).toBe(0)
    const events = byPath(dry, root)
    expect(events['known.png']).toMatchObject({ event: 'duplicate' })
    // The real run pushes one of the two copies (whichever is hashed first) and reports the other as a duplicate of it.
    const copies = [events['new.png']!, events['sub/copy.png']!].sort((a, b) => String(a.event).localeCompare(String(b.event)))
    expect(copies).toEqual([
      expect.objectContaining({ event: 'duplicate', asset_id: null, reason: `the same bytes as ${String(copies[1]!.path)}, which would be pushed` }),
      expect.objectContaining({ event: 'missing', reason: 'would be pushed' }),
    ])
    expect(summaryOf(dry)).toMatchObject({ files: 3, missing: 1, duplicate: 2, dry_run: true })
    const drySummary = await cli(['push', root, '--dry-run'])
    expect(drySummary.stdout).toMatch(/^3 files: 1 would be pushed, 2 already in the library, 0 skipped, 0 failed in [\d.]+ s \([\d.]+ MiB read\)$/m)

    const globbed = await cli(['push', join(root, '*.png'), '--ignore', 'known*', '--dry-run', '--json'])
    expect(Object.keys(byPath(globbed, root))).toEqual(['new.png'])

    const checked = await cli(['check', root])
    expect(checked.code).toBe(1)
    expect(checked.stdout).toMatch(/in library +\S+known\.png \(/)
    expect(checked.stdout).toMatch(/missing +\S+new\.png: not in the library/)
    expect(checked.stdout).toMatch(/missing +\S+copy\.png: not in the library/)
    // check pushes nothing, so its summary says what it found, not what it pushed.
    expect(checked.stdout).toMatch(/^3 files checked: 1 in the library, 2 missing, 0 skipped, 0 failed in [\d.]+ s \([\d.]+ MiB read\)$/m)
    expect(checked.stdout).not.toContain('pushed')
    expect(pushesSince(mark)).toBe(0)
  })

  it('--sync pushes each file with its path as external_id; a re-run after an edit makes a new version of that asset and sends nothing else', async () => {
    const root = folder('synced')
    mkdirSync(join(root, 'brand'))
    writeFileSync(join(root, 'brand', 'logo.png'), await uniquePng())
    writeFileSync(join(root, 'banner.png'), await uniquePng())
    const first = await cli(['push', root, '--sync', '--json'])
    expect(first.code).toBe(0)
    const events = byPath(first, root)
    expect(events['brand/logo.png']).toMatchObject({ event: 'pushed' })
    expect(events['banner.png']).toMatchObject({ event: 'pushed' })
    const logoId = String(events['brand/logo.png']!.asset_id)
    const client = createClient({ baseUrl: library.url, apiKey: library.acme.readKey })
    expect(await client.assets.get(logoId)).toMatchObject({ external_id: 'path:brand/logo.png', version: 1 })

    const redrawn = await uniquePng()
    writeFileSync(join(root, 'brand', 'logo.png'), redrawn)
    const mark = library.requests.length
    const again = await cli(['push', root, '--sync', '--json'])
    expect(again.code).toBe(0)
    const second = byPath(again, root)
    expect(second['brand/logo.png']).toMatchObject({ event: 'updated', asset_id: logoId })
    expect(second['banner.png']).toMatchObject({ event: 'duplicate', asset_id: events['banner.png']!.asset_id })
    expect(summaryOf(again)).toMatchObject({ files: 2, pushed: 0, updated: 1, duplicate: 1, failed: 0 })
    expect(pushesSince(mark)).toBe(1)
    expect(await client.assets.get(logoId)).toMatchObject({ version: 2, sha256: sha256(redrawn), external_id: 'path:brand/logo.png' })
    expect((await client.assets.list({ external_id: 'path:brand/logo.png' })).data.map((asset) => asset.id)).toEqual([logoId])

    // Without --sync the same edit is a new asset, as before.
    writeFileSync(join(root, 'brand', 'logo.png'), await uniquePng())
    const plain = byPath(await cli(['push', root, '--json']), root)
    expect(plain['brand/logo.png']).toMatchObject({ event: 'pushed' })
    expect(plain['brand/logo.png']!.asset_id).not.toBe(logoId)
  })

  it('hashes a file larger than one read as the server does: the check finds it, and nothing is pushed', async () => {
    const root = folder('large')
    const large = await noisePng(1000)
    expect(large.length).toBeGreaterThan(2 * 1024 * 1024)
    await createClient({ baseUrl: library.url, apiKey: library.acme.writeKey }).assets.push(large)
    writeFileSync(join(root, 'large.png'), large)
    const mark = library.requests.length
    const run = await cli(['push', root, '--json', '--no-cache'])
    expect(run.code).toBe(0)
    expect(byPath(run, root)).toMatchObject({ 'large.png': { event: 'duplicate' } })
    expect(summaryOf(run)).toMatchObject({ bytes_read: large.length, bytes_pushed: 0 })
    expect(pushesSince(mark)).toBe(0)
  })

  it('--collection makes the manual collection and puts every file in it, those the library had included; a smart one is refused', async () => {
    const client = createClient({ baseUrl: library.url, apiKey: library.acme.writeKey })
    const root = folder('collected')
    const known = await uniquePng()
    await client.assets.push(known)
    writeFileSync(join(root, 'known.png'), known)
    writeFileSync(join(root, 'new.png'), await uniquePng())

    const run = await cli(['push', root, '--collection', 'Spring launch', '--json'])
    expect(run.code).toBe(0)
    expect(run.stderr).toContain('Made the collection "Spring launch"')
    expect(byPath(run, root)).toMatchObject({ 'known.png': { event: 'duplicate' }, 'new.png': { event: 'pushed' } })
    const made = (await client.collections.list()).data.find((collection) => collection.name === 'Spring launch')
    expect(made).toMatchObject({ kind: 'manual', asset_count: 2 })

    await client.collections.create({ name: 'Everything red', query: { tag: 'red' } })
    const smart = await cli(['push', root, '--collection', 'everything red'])
    expect(smart.code).toBe(2)
    expect(smart.stderr).toMatch(/"everything red" is a smart collection/)
  })

  it('keeps under a real rate limit: waits for the window instead of meeting 429s, and every file lands', async () => {
    const limited = await startLibrary({ RATE_LIMIT_EXPENSIVE: '2', RATE_LIMIT_WINDOW_MS: '3000' })
    try {
      const pushStatuses: number[] = []
      limited.hook = (request, response) => {
        if (request.method === 'POST' && request.url === '/api/v1/assets') response.once('finish', () => pushStatuses.push(response.statusCode))
        return 'pass'
      }
      const root = folder('paced')
      for (let i = 0; i < 5; i++) writeFileSync(join(root, `poster-${i}.png`), await uniquePng())
      const run = await cli(['push', root, '--json', '--concurrency', '4'], { ASSET_LIBRARY_URL: limited.url, ASSET_LIBRARY_KEY: limited.acme.writeKey })
      expect(run.code).toBe(0)
      expect(summaryOf(run)).toMatchObject({ pushed: 5, failed: 0 })
      expect(pushStatuses.sort()).toEqual([201, 201, 201, 201, 201])
    } finally {
      await stopLibrary(limited)
    }
  })

  it('a push whose answer is lost is sent again with its Idempotency-Key and the same body, and answered from the first: one asset, reported pushed', async () => {
    const root = folder('answer-lost')
    writeFileSync(join(root, 'banner.png'), await uniquePng())
    const pushes: Array<{ key: string | undefined; replayed: string | undefined }> = []
    library.hook = (request, response) => {
      if (request.method !== 'POST' || request.url !== '/api/v1/assets') return 'pass'
      const push = { key: request.headers['idempotency-key'] as string | undefined, replayed: undefined as string | undefined }
      pushes.push(push)
      if (pushes.length === 1) {
        // The service does the push and records its answer; the connection drops before the client reads it.
        response.writeHead = () => (request.socket.destroy(), response)
      } else {
        const writeHead = response.writeHead.bind(response) as (status: number, headers?: Record<string, string>) => ServerResponse
        response.writeHead = ((status: number, headers?: Record<string, string>) => {
          push.replayed = headers?.['idempotent-replayed']
          return writeHead(status, headers)
        }) as typeof response.writeHead
      }
      return 'pass'
    }
    const mark = library.requests.length
    try {
      const run = await cli(['push', root, '--json'])
      expect(run.code).toBe(0)
      expect(run.events[0]).toMatchObject({ event: 'pushed' })
      expect(pushesSince(mark)).toBe(2)
      expect(pushes[0]!.key).toBeDefined()
      expect(pushes[1]).toEqual({ key: pushes[0]!.key, replayed: 'true' })
    } finally {
      library.hook = undefined
    }
  })

  it('a push whose server died before answering is answered on the retry at once (not 409 for 60 s): stored, reported, not failed', async () => {
    const root = folder('server-died')
    const image = await uniquePng()
    writeFileSync(join(root, 'crash.png'), image)
    // The serving process that dies: its lease goes with it.
    const dying = await otherProcessLease(library.t)
    await endLease(library.t, dying)
    let pushes = 0
    library.hook = async (request, response): Promise<'pass'> => {
      if (request.method !== 'POST' || request.url !== '/api/v1/assets') return 'pass'
      pushes += 1
      if (pushes === 1) {
        // The push is stored; the connection drops before its answer goes out.
        response.writeHead = () => (request.socket.destroy(), response)
        return 'pass'
      }
      // The retry finds the key as a killed process leaves it: claimed by that process, never answered.
      const key = String(request.headers['idempotency-key'])
      await sql`update idempotency_keys set status = null, headers = null, body = null, locked_until = now() + interval '1 minute', claim = ${claimBy(dying)} where key = ${key}`.execute(library.t.database.handle.db)
      return 'pass'
    }
    try {
      const run = await cli(['push', root, '--json'])
      expect(run.code).toBe(0)
      const stored = await createClient({ baseUrl: library.url, apiKey: library.acme.readKey }).assets.check([sha256(image)])
      expect(run.events[0]).toMatchObject({ event: 'duplicate', asset_id: stored.found[0]!.asset_id })
      expect(pushes).toBe(2)
    } finally {
      library.hook = undefined
    }
  })

  it('a file changed between its hash and its upload is pushed as its new bytes', async () => {
    const root = folder('changing')
    const path = join(root, 'draft.png')
    writeFileSync(path, await uniquePng())
    const replacement = await uniquePng(20, 20)
    library.hook = (request) => {
      if (request.url === '/api/v1/assets/check') writeFileSync(path, replacement)
      return 'pass'
    }
    try {
      const run = await cli(['push', path, '--json'])
      expect(run.code).toBe(0)
      const pushed = run.events[0]!
      expect(pushed).toMatchObject({ event: 'pushed' })
      const asset = await createClient({ baseUrl: library.url, apiKey: library.acme.readKey }).assets.get(String(pushed.asset_id))
      expect(asset.sha256).toBe(sha256(replacement))
    } finally {
      library.hook = undefined
    }
  })

  it('Ctrl-C lets the pushes in flight finish, stops, says how to resume, and the re-run pushes the rest once', async () => {
    const root = folder('interrupted')
    for (let i = 0; i < 6; i++) writeFileSync(join(root, `frame-${i}.png`), await uniquePng())
    const held: Array<() => void> = []
    let answered = 0
    // The first push goes alone (its answer tells the rate limit), then two at a time: those are held.
    library.hook = (request) => {
      if (request.method !== 'POST' || request.url !== '/api/v1/assets' || answered++ === 0) return 'pass'
      return new Promise((resolve) => held.push(() => resolve('pass')))
    }
    const mark = library.requests.length
    try {
      const run = startCli(['push', root, '--json', '--concurrency', '2'])
      await waitFor('two pushes held', () => held.length === 2, 60_000)
      run.child.kill('SIGINT')
      await new Promise((resolve) => setTimeout(resolve, 300))
      for (const release of held.splice(0)) release()
      const stopped = await run.done
      expect(stopped.code).toBe(130)
      expect(summaryOf(stopped)).toMatchObject({ pushed: 3, failed: 0, stopped: true, pending: 3 })
      expect(stopped.stderr).toContain('Run the same command again to resume')
      expect(pushesSince(mark)).toBe(3)
    } finally {
      library.hook = undefined
    }
    const resumed = await cli(['push', root, '--json'])
    expect(resumed.code).toBe(0)
    expect(summaryOf(resumed)).toMatchObject({ pushed: 3, duplicate: 3 })
    expect(pushesSince(mark)).toBe(6)
  })

  it('a server that goes away mid-run: the files in flight fail with the reason, the run stops with exit 2 and one line', async () => {
    const root = folder('lost')
    for (let i = 0; i < 8; i++) writeFileSync(join(root, `shot-${i}.png`), await uniquePng())
    let answered = 0
    library.hook = (request) => {
      if (request.method !== 'POST' || request.url !== '/api/v1/assets') return 'pass'
      answered += 1
      if (answered <= 2) return 'pass'
      request.socket.destroy()
      return 'handled'
    }
    try {
      const run = await cli(['push', root, '--json', '--concurrency', '1'])
      expect(run.code).toBe(2)
      const summary = summaryOf(run)
      expect(summary).toMatchObject({ pushed: 2, failed: 1 })
      expect(summary.pending).toBe(5)
      expect(run.events.find((event) => event.event === 'failed')).toMatchObject({ reason: expect.stringContaining('no answer') })
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^asset-library-client: the server stopped answering .*run the same command again to resume/)])
    } finally {
      library.hook = undefined
    }
  })
})

/** A stand-in for the service: it knows any key, has none of the files, and answers pushes with `push`. */
function fakeLibrary(push: (request: IncomingMessage, response: ServerResponse) => void): Promise<TestServer> {
  return startServer((request, response) => {
    const answer = (body: unknown) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (request.url === '/api/v1/auth/key') return answer({ scope: 'assets:write' })
    request.resume()
    if (request.url === '/api/v1/assets/check') return request.once('end', () => answer({ found: [], missing: [] }))
    push(request, response)
  })
}

const pushesTo = (server: TestServer) => server.hits.filter((path) => path === '/api/v1/assets').length

describe('stopping', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s during a 429\'s Retry-After ends the wait at once: no push is sent again, the summary is printed, exit 130', async (signal) => {
    const root = folder(`limited-${signal}`)
    for (let i = 0; i < 3; i++) writeFileSync(join(root, `tile-${i}.png`), await uniquePng())
    let refused = 0
    const limited = await fakeLibrary((request, response) => {
      request.once('end', () => {
        response.once('finish', () => (refused += 1))
        response
          .writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '50', 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '50' })
          .end(JSON.stringify({ type: 'urn:asset-library:problem:rate_limited', title: 'Rate limit exceeded', status: 429, code: 'rate_limited' }))
      })
    })
    try {
      const run = startCli(['push', root, '--json'], { ASSET_LIBRARY_URL: limited.url, ASSET_LIBRARY_KEY: 'al_test_key' })
      await waitFor('a push refused for 50 s', () => refused === 1, 60_000)
      const signalled = Date.now()
      run.child.kill(signal)
      // Well before the 50 s of Retry-After (the CLI used to wait them out, then push again).
      await waitFor('the run to end', () => run.child.exitCode !== null, 15_000)
      expect(Date.now() - signalled).toBeLessThan(15_000)
      const stopped = await run.done
      expect(stopped.code).toBe(130)
      expect(stopped.stderr).toContain('Stopping')
      expect(summaryOf(stopped)).toMatchObject({ files: 3, pushed: 0, failed: 0, pending: 3, stopped: true })
      expect(pushesTo(limited)).toBe(1)
    } finally {
      await limited.close()
    }
  })

  it('a second Ctrl-C on a terminal quits at once and clears the progress bar off the screen', async () => {
    const root = folder('held-on-a-terminal')
    writeFileSync(join(root, 'held.png'), await uniquePng())
    // The push is never answered: the first Ctrl-C waits for it, the second one quits.
    const holding = await fakeLibrary(() => {})
    // `script` gives the run a terminal, and turns the ^C written to it into a SIGINT, as a keyboard's does.
    const command = [...CLI, 'push', root].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ')
    const terminal = spawn('script', ['-qfec', `exec ${command}`, '/dev/null'], {
      env: { ...process.env, ASSET_LIBRARY_URL: holding.url, ASSET_LIBRARY_KEY: 'al_test_key', XDG_CACHE_HOME: join(scratch, 'cache'), TERM: 'xterm' },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    children.push(terminal)
    let screen = ''
    terminal.stdout!.on('data', (chunk: Buffer) => (screen += chunk.toString('utf8')))
    const exited = new Promise<number | null>((resolve) => terminal.once('exit', resolve))
    try {
      await waitFor('a push held with the bar on screen', () => pushesTo(holding) === 1 && screen.includes('\x1b[?25l') && screen.includes('\u2591'), 60_000)
      terminal.stdin!.write('\x03')
      await waitFor('the first Ctrl-C heard', () => screen.includes('Stopping'))
      terminal.stdin!.write('\x03')
      expect(await exited).toBe(130)
      // Cleared: the cursor shown again after it was hidden, the screen cleared below it, and no bar drawn since.
      expect(screen.lastIndexOf('\x1b[?25h')).toBeGreaterThan(screen.lastIndexOf('\x1b[?25l'))
      const afterClear = screen.slice(screen.lastIndexOf('\x1b[0J'))
      expect(screen.lastIndexOf('\x1b[0J')).toBeGreaterThan(screen.lastIndexOf('Stopping'))
      expect(afterClear).not.toMatch(/[\u2588\u2591]/)
    } finally {
      await holding.close()
    }
  })
})

describe('bad usage, a refused key, an unreachable server: exit 2 with one line', () => {
  it.each([
    ['no command', [], /Usage:/],
    ['push with no path', ['push'], /push needs files/],
    ['an unknown option', ['push', '.', '--colour'], /Unknown option '--colour'/],
    ['a path that does not exist', ['push', '/nowhere/at/all'], /no such file or folder: \/nowhere\/at\/all/],
    ['a bad --concurrency', ['push', '.', '--concurrency', 'many'], /--concurrency takes a whole number/],
  ])('%s', async (_name, args, message) => {
    const run = await cli(args)
    expect(run.code).toBe(2)
    expect(`${run.stdout}${run.stderr}`).toMatch(message)
    expect(run.stderr).not.toMatch(/\n\s+at /)
  })

  it('an asset type the library lacks, before any file is pushed', async () => {
    const root = folder('mistyped')
    writeFileSync(join(root, 'poster.png'), await uniquePng())
    const mark = library.requests.length
    const run = await cli(['push', root, '--type', 'Bogus'])
    expect(run.code).toBe(2)
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^asset-library-client: --type "Bogus" is not one of the library's asset types \(.*\bBanner, .*\)$/)])
    expect(library.requests.slice(mark).filter((line) => line.startsWith('POST'))).toEqual([])
  })

  it('a revoked key', async () => {
    const { writeKey } = await seedOrganization(library.t.app, 'Revoked Inc')
    await createClient({ baseUrl: library.url, apiKey: writeKey }).auth.revoke()
    const run = await cli(['push', scratch], { ASSET_LIBRARY_KEY: writeKey })
    expect(run.code).toBe(2)
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^asset-library-client: the API key was refused \(401/)])
  })

  it('a read-only key for a push', async () => {
    const run = await cli(['push', scratch], { ASSET_LIBRARY_KEY: library.acme.readKey })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/the API key is read-only/)
  })

  it('an unreachable server', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const run = await cli(['list'], { ASSET_LIBRARY_URL: `http://127.0.0.1:${port}` })
    expect(run.code).toBe(2)
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^asset-library-client: cannot reach http://127.0.0.1:${port}: .*ECONNREFUSED`))])
  })
})

describe('list --sort', () => {
  it('lists in the order asked, and a key the API does not take is its 400', async () => {
    const client = createClient({ baseUrl: library.url, apiKey: library.acme.writeKey })
    for (const title of ['sorted Zebra', 'sorted apple', 'sorted Mango']) await client.assets.push(await uniquePng(), { title })
    const sorted = await cli(['list', '--sort=title', '-q', 'sorted', '--all', '--json'])
    expect(sorted.code, sorted.stderr).toBe(0)
    expect(sorted.events.map((asset) => asset.title)).toEqual(['sorted apple', 'sorted Mango', 'sorted Zebra'])
    const descending = await cli(['list', '--sort=-title', '-q', 'sorted', '--json'])
    expect(descending.events.map((asset) => asset.title)).toEqual(['sorted Zebra', 'sorted Mango', 'sorted apple'])
    const unknown = await cli(['list', '--sort=size'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/400|sort/)
  })
})

describe('trash', () => {
  it('trash list shows the deleted assets as a table or NDJSON, and trash restore puts one back', async () => {
    const client = createClient({ baseUrl: library.url, apiKey: library.acme.writeKey })
    const { asset_id: id } = await client.assets.push(await uniquePng(), { title: 'Binned poster' })
    await client.assets.delete(id)

    const table = await cli(['trash', 'list'])
    expect(table.code).toBe(0)
    expect(table.stdout.split('\n')[0]).toMatch(/^ID +TITLE +DELETED +BY +PURGED AT$/)
    expect(table.stdout).toMatch(new RegExp(`${id} +Binned poster +\\S+ +assets:write \\(key\\) +\\S+`))
    expect(table.stderr).toMatch(/of \d+ assets in the trash/)
    const json = await cli(['trash', 'list', '--all', '--json'])
    expect(json.events).toContainEqual(expect.objectContaining({ id, title: 'Binned poster', deleted_by: { kind: 'key', name: 'assets:write' } }))

    const restored = await cli(['trash', 'restore', id, '--json'])
    expect(restored.code).toBe(0)
    expect(restored.events).toEqual([expect.objectContaining({ id, title: 'Binned poster' })])
    expect((await client.assets.get(id)).title).toBe('Binned poster')
    expect((await cli(['trash', 'list', '--all', '--json'])).events.map((asset) => asset.id)).not.toContain(id)

    const again = await cli(['trash', 'restore', id])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/404/)
    const bad = await cli(['trash', 'empty'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/trash list or trash restore <id>/)
  })
})

describe('edit', () => {
  it('edit selects assets with --where, edits every page of them (those its edit takes out of the selection included) and sums up; --dry-run edits nothing', async () => {
    const client = createClient({ baseUrl: library.url, apiKey: library.acme.writeKey })
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push((await client.assets.push(await uniquePng(), { tag_names: ['wip'], client: i === 0 ? 'Acme' : 'Initech' })).asset_id)
    const other = (await client.assets.push(await uniquePng(), { tag_names: ['final'] })).asset_id

    const dry = await cli(['edit', '--where', 'tag=WIP', '--tag-add', 'reviewed', '--dry-run'], { ASSET_LIBRARY_KEY: library.acme.readKey })
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stdout).toBe('3 assets would be edited\n')
    expect((await client.assets.get(ids[0]!)).tags).toEqual(['wip'])

    const edited = await cli(['edit', '--where', 'tag=wip', '--tag-add', 'reviewed', '--tag-remove', 'wip', '--set', 'client=Acme', '--set', 'origin=person'])
    expect(edited.code, edited.stderr).toBe(0)
    expect(edited.stdout).toBe('3 updated, 0 unchanged, 0 not found, 0 forbidden\n')
    for (const id of ids) expect(await client.assets.get(id)).toMatchObject({ tags: ['reviewed'], client: 'Acme', created_by_ai: false })
    expect((await client.assets.get(other)).tags).toEqual(['final'])

    const again = await cli(['edit', '--where', 'tag=reviewed', '--where', 'client=acme', '--set', 'client=Acme', '--json'])
    expect(again.code, again.stderr).toBe(0)
    expect(again.events.at(-1)).toEqual({ event: 'summary', updated: 0, unchanged: 3, not_found: 0, forbidden: 0 })
    expect(again.events.slice(0, -1).map((event) => event.id).sort()).toEqual([...ids].sort())

    const readOnly = await cli(['edit', '--where', 'tag=reviewed', '--tag-add', 'x'], { ASSET_LIBRARY_KEY: library.acme.readKey })
    expect(readOnly.code).toBe(2)
    expect(readOnly.stderr).toMatch(/the API key is read-only/)
    const noChange = await cli(['edit', '--where', 'tag=reviewed'])
    expect(noChange.code).toBe(2)
    expect(noChange.stderr).toMatch(/edit needs a change/)
    const badSet = await cli(['edit', '--where', 'tag=reviewed', '--set', 'title=x'])
    expect(badSet.code).toBe(2)
    expect(badSet.stderr).toMatch(/--set takes FIELD=VALUE with FIELD one of type, client, product, origin/)
    const unknownType = await cli(['edit', '--where', 'tag=reviewed', '--set', 'type=Hologram'])
    expect(unknownType.code).toBe(1)
    expect(unknownType.stderr).toMatch(/422 unknown_asset_type/)
  })
})

describe('duplicates', () => {
  it('duplicates list prints each group and its near-duplicates, newest group first; resolve keeps one, trashes the others, and says so', async () => {
    const client = createClient({ baseUrl: library.url, apiKey: library.acme.writeKey })
    const harbour = await scenePng(23)
    const { asset_id: original } = await client.assets.push(harbour, { title: 'Harbour at dusk', tag_names: ['harbour'] })
    const { asset_id: copy } = await client.assets.push(await sharp(harbour).jpeg({ quality: 70 }).toBuffer(), { title: 'Harbour at dusk (export)', tag_names: ['export'] })
    const meadow = await scenePng(24)
    const { asset_id: meadowId } = await client.assets.push(meadow, { title: 'Meadow' })
    const { asset_id: meadowCopy } = await client.assets.push(await sharp(meadow).resize(240).png().toBuffer(), { title: 'Meadow small' })
    for (const id of [copy, meadowCopy]) await waitFor(`the hash of ${id}`, async () => (await client.assets.get(id)).near_duplicates?.length)

    const table = await cli(['duplicates', 'list'], { ASSET_LIBRARY_KEY: library.acme.readKey })
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(new RegExp(`^${original}  Harbour at dusk\n  distance \\d  ${copy}  Harbour at dusk \\(export\\)$`, 'm'))
    expect(table.stderr).toMatch(/^\d+ groups of near-duplicates; keep one of a group and trash the others with: duplicates resolve <keep-id> <other-id…>$/m)
    const json = await cli(['duplicates', 'list', '--json'])
    expect(json.events).toContainEqual({
      asset: expect.objectContaining({ id: original, title: 'Harbour at dusk' }),
      duplicates: [{ distance: expect.any(Number), asset: expect.objectContaining({ id: copy }) }],
    })
    const newest = await cli(['duplicates', 'list', '--limit', '1', '--json'])
    expect(newest.events).toEqual([expect.objectContaining({ asset: expect.objectContaining({ id: meadowId }) })])

    const readOnly = await cli(['duplicates', 'resolve', original, copy], { ASSET_LIBRARY_KEY: library.acme.readKey })
    expect(readOnly.code).toBe(2)
    expect(readOnly.stderr).toMatch(/the API key is read-only/)
    const resolved = await cli(['duplicates', 'resolve', original, copy])
    expect(resolved.code, resolved.stderr).toBe(0)
    expect(resolved.stdout).toBe(`kept       ${original}  Harbour at dusk\ntrashed    ${copy}\n`)
    expect((await client.assets.get(original)).tags.sort()).toEqual(['export', 'harbour'])
    expect((await client.trash.list({ limit: 100 })).data.map((asset) => asset.id)).toContain(copy)

    const again = await cli(['duplicates', 'resolve', original, copy])
    expect(again.code).toBe(1)
    expect(again.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^asset-library-client: nothing was changed \\(404 not_found\\): .*${copy}`))])
    const keptAmongTrashed = await cli(['duplicates', 'resolve', meadowId, meadowCopy, meadowId])
    expect(keptAmongTrashed.code).toBe(1)
    expect(keptAmongTrashed.stderr).toMatch(/400 validation_failed: .*\(trash\/1: the asset to keep cannot also be trashed\)$/m)
    const asJson = await cli(['duplicates', 'resolve', meadowId, meadowCopy, '--json'])
    expect(asJson.code, asJson.stderr).toBe(0)
    expect(asJson.events).toEqual([{ kept: expect.objectContaining({ id: meadowId }), trashed: [meadowCopy] }])
  })
})

describe('colors', () => {
  it('colors prints the colour names with their swatches\u2019 hex, as a table or NDJSON', async () => {
    const table = await cli(['colors'], { ASSET_LIBRARY_KEY: library.acme.readKey })
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME +HEX$/)
    expect(table.stdout).toMatch(/^red +#[0-9a-f]{6}$/m)
    const json = await cli(['colors', '--json'])
    expect(json.events).toEqual((await createClient({ baseUrl: library.url, apiKey: library.acme.readKey }).colors.list()).data)
  })
})

describe('get', () => {
  it('downloads a rendition at a size and format, a preset, or the original; and the SDK\u2019s render answers its link and size', async () => {
    const client = createClient({ baseUrl: library.url, apiKey: library.acme.readKey })
    const original = await solid(300, 200).png().toBuffer()
    const { asset_id: id } = await createClient({ baseUrl: library.url, apiKey: library.acme.writeKey }).assets.push(original, { title: 'Wide banner' })
    expect(await client.assets.render(id, { width: 150, format: 'webp' })).toMatchObject({ width: 150, height: 100, format: 'webp' })

    const sized = join(scratch, 'banner-150.webp')
    const run = await cli(['get', id, '--width', '150', '--format', 'webp', '-o', sized, '--json'], { ASSET_LIBRARY_KEY: library.acme.readKey })
    expect(run.code, run.stderr).toBe(0)
    expect(run.events).toEqual([{ id, file: sized, width: 150, height: 100, format: 'webp', bytes: statSync(sized).size }])
    expect(await sharp(sized).metadata()).toMatchObject({ format: 'webp', width: 150, height: 100 })

    const thumbnail = join(scratch, 'banner-thumb.webp')
    expect((await cli(['get', id, '--preset', 'thumbnail', '-o', thumbnail])).code).toBe(0)
    expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'webp', width: 300, height: 200 })
    const copy = join(scratch, 'banner.png')
    const whole = await cli(['get', id, '-o', copy])
    expect(whole.stderr).toContain(`saved      ${copy} (300x200 png`)
    expect(sha256(readFileSync(copy))).toBe(sha256(original))

    const both = await cli(['get', id, '--preset', 'thumbnail', '--width', '10', '-o', copy])
    expect(both.code).toBe(2)
    expect(both.stderr).toMatch(/--preset sets the size and format/)
    const unknown = await cli(['get', id, '--preset', 'no-such', '-o', copy])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/preset/)
  })
})

describe('search and list', () => {
  it('list prints a table of the filtered assets, or NDJSON', async () => {
    const client = createClient({ baseUrl: library.url, apiKey: library.acme.writeKey })
    const { asset_id } = await client.assets.push(await uniquePng(), { title: 'Zeppelin poster', tag_names: ['airship'] })
    const table = await cli(['list', '--tag', 'airship'])
    expect(table.code).toBe(0)
    expect(table.stdout.split('\n')[0]).toMatch(/^ID +TITLE +TYPE +CLIENT +PRODUCT +TAGS +SIZE$/)
    expect(table.stdout).toMatch(new RegExp(`${asset_id} +Zeppelin poster .*airship`))
    const json = await cli(['list', '--tag', 'airship', '--json'])
    expect(json.events).toEqual([expect.objectContaining({ id: asset_id, title: 'Zeppelin poster' })])

    const found = await cli(['search', 'zeppelin', '--json'])
    expect(found.code).toBe(0)
    expect(found.events.map((hit) => hit.id)).toContain(asset_id)
  })

  it('--color and --provenance filter list and search by what the pictures show; a value the API lacks is refused in its words', async () => {
    const client = createClient({ baseUrl: library.url, apiKey: library.acme.writeKey })
    const declaring = (source: string, colour: string) => imageWithXmp('png', xmpDeclaring(digitalSourceType(source)), colour)
    const fields = { title: 'Lighthouse poster', tag_names: ['lighthouse'] }
    const { asset_id: red } = await client.assets.push(await declaring('trainedAlgorithmicMedia', '#d32f2f'), fields)
    const { asset_id: blue } = await client.assets.push(await declaring('digitalCapture', '#1976d2'), fields)
    await drainDerivations(library.t.app, 'palette', 'provenance')
    const ids = (run: Run) => run.events.map((asset) => asset.id)

    expect(ids(await cli(['list', '--tag', 'lighthouse', '--color', 'red', '--json']))).toEqual([red])
    const captured = await cli(['list', '--tag', 'lighthouse', '--provenance', 'capture'])
    expect(captured.code, captured.stderr).toBe(0)
    expect(captured.stdout).toMatch(new RegExp(`^${blue} +Lighthouse poster`, 'm'))
    expect(captured.stdout).not.toContain(red)
    expect(ids(await cli(['search', 'lighthouse poster', '--provenance', 'ai', '--json']))).toEqual([red])
    expect(ids(await cli(['search', 'lighthouse poster', '--color', 'blue', '--json']))).toEqual([blue])

    const unknown = await cli(['list', '--provenance', 'robot'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^asset-library-client: GET \/api\/v1\/assets: 400 validation_failed: .*\(query\/provenance: must be one of: ai, ai_composite, capture, edited, unknown\)$/),
    ])
  })
})
