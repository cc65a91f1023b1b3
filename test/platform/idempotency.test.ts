import { createHash, randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { sql } from 'kysely'
import pg from 'pg'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_IMAGE_BYTES } from '../../src/modules/assets/push.js'
import { MAX_KEY_LENGTH } from '../../src/platform/http/idempotency.js'
import { scheduleIdempotencyPruning } from '../../src/platform/background/idempotency-pruning.js'
import { silentLogger } from '../support/database.js'
import { bearer, FILES_ON_DISK, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectInvalid, expectProblem, outboxEvents } from '../support/fixtures.js'
import { startServer, type TestServer } from '../support/http-server.js'
import { uniquePng } from '../support/images.js'
import { claimBy, endLease, otherProcessLease } from '../support/process-leases.js'
import { loginOwner } from '../support/sessions.js'
import { deferred, waitFor } from '../support/wait.js'

const onPostgres = Boolean(process.env.TEST_DATABASE_URL)
let t: TestApp
let acme: Seeded
let images: TestServer
/** The app's port on 127.0.0.1, for what only a real socket shows. */
let port: number
/** /held.png: a new image, answered once `release` is called; `asked` marks when it was asked for. */
let held: { asked: ReturnType<typeof deferred>; release: ReturnType<typeof deferred>; image: Buffer } = { asked: deferred(), release: deferred(), image: Buffer.alloc(0) }
const holdImage = async () => {
  held = { asked: deferred(), release: deferred(), image: await uniquePng() }
}

const db = () => t.database.handle.db

type Call = { method: 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object | string; key?: string; idempotencyKey?: string; headers?: Record<string, string> }

function call({ method, url, payload, key = acme.writeKey, idempotencyKey, headers = {} }: Call): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    headers: { ...bearer(key), ...(idempotencyKey !== undefined && { 'idempotency-key': idempotencyKey }), ...headers },
    ...(payload && { payload }),
  })
}

const createCollection = (name: string, idempotencyKey?: string, key?: string) =>
  call({ method: 'POST', url: '/api/v1/collections', payload: { name }, ...(idempotencyKey !== undefined && { idempotencyKey }), ...(key && { key }) })

const count = async (table: 'collections' | 'assets') =>
  (await db().selectFrom(table).select(sql<number>`count(*)::int`.as('n')).where('organization_id', '=', acme.org.id).executeTakeFirstOrThrow()).n

/** A real multipart body as fetch sends it: each call draws a new boundary. */
async function form(entries: Array<[string, string | Buffer]>): Promise<{ payload: Buffer; contentType: string }> {
  const data = new FormData()
  for (const [name, value] of entries) data.append(name, typeof value === 'string' ? value : new Blob([value]), ...(typeof value === 'string' ? [] : ['image.png']))
  const response = new Response(data)
  return { payload: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! }
}

const pushForm = (body: { payload: Buffer; contentType: string }, idempotencyKey: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/assets',
    headers: { ...bearer(acme.writeKey), 'content-type': body.contentType, 'idempotency-key': idempotencyKey },
    payload: body.payload,
  })

/** A multipart push over a real socket, its body written chunked in pieces of `size` bytes. */
function sendInPieces(body: { payload: Buffer; contentType: string }, idempotencyKey: string, size: number) {
  return new Promise<{ status: number; body: string; replayed: string | undefined }>((resolve, reject) => {
    const headers = { ...bearer(acme.writeKey), 'content-type': body.contentType, 'idempotency-key': idempotencyKey, 'transfer-encoding': 'chunked' }
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/assets', headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), replayed: res.headers['idempotent-replayed'] as string | undefined }))
    })
    request.on('error', reject)
    for (let at = 0; at < body.payload.length; at += size) request.write(body.payload.subarray(at, at + size))
    request.end()
  })
}

/** The answer a client sees, without what belongs to each request. */
function answer(res: LightMyRequestResponse) {
  return { status: res.statusCode, body: res.body, type: res.headers['content-type'], location: res.headers.location }
}

function expectReplayOf(replayed: LightMyRequestResponse, first: LightMyRequestResponse) {
  expect(answer(replayed)).toEqual(answer(first))
  expect(replayed.headers['idempotent-replayed']).toBe('true')
  expect(first.headers['idempotent-replayed']).toBeUndefined()
}

beforeAll(async () => {
  t = await startTestApp({
    env: { ...FILES_ON_DISK, OUTBOUND_ALLOWLIST: '127.0.0.1/32', IMAGE_FETCH_TIMEOUT_MS: '20000', RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_STANDARD: '10000' },
  })
  acme = await seedOrganization(t.app, 'Acme')
  images = await startServer((req, res) => {
    if (req.url !== '/held.png') return void res.writeHead(404).end()
    const { asked, release, image } = held
    asked.resolve()
    void release.promise.then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(image))
  })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  port = (t.app.server.address() as AddressInfo).port
})
afterAll(async () => {
  held.release.resolve()
  await images.close()
  await t.close()
})

describe('a retry with the same Idempotency-Key', () => {
  it('gets the first answer again, marked replayed, and nothing is done twice', async () => {
    const collectionsBefore = await count('collections')
    const key = randomUUID()
    const first = await createCollection('Replayed once', key)
    expect(first.statusCode, first.body).toBe(201)
    const again = await createCollection('Replayed once', key)
    expectReplayOf(again, first)
    // A replay counts in its bucket like any request (docs/decisions.md), and its rate-limit headers are its own.
    expect(Number(again.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1)
    expect(await count('collections')).toBe(collectionsBefore + 1)
    const events = await outboxEvents(db(), acme.org.id, 'collection.created')
    expect(events.filter((event) => (event as { name?: string }).name === 'Replayed once')).toHaveLength(1)
  })

  it('replays a multipart push sent again with a new boundary, and stores one asset', async () => {
    const assetsBefore = await count('assets')
    const image = await uniquePng()
    const key = randomUUID()
    const firstForm = await form([['file', image], ['title', 'Logo']])
    const secondForm = await form([['file', image], ['title', 'Logo']])
    expect(secondForm.contentType).not.toBe(firstForm.contentType)
    const first = await pushForm(firstForm, key)
    expect(first.statusCode, first.body).toBe(201)
    const again = await pushForm(secondForm, key)
    expectReplayOf(again, first)
    expect(await count('assets')).toBe(assetsBefore + 1)
    const created = await outboxEvents(db(), acme.org.id, 'asset.created')
    expect(created.filter((event) => event.id === first.json().asset_id)).toHaveLength(1)
    // Another file under the same key is another request.
    expectProblem(await pushForm(await form([['file', await uniquePng()], ['title', 'Logo']]), key), 422, 'idempotency_key_reused')
  })

  it('replays a multipart push sent over a socket in other pieces, a boundary split between two of them', async () => {
    const image = await uniquePng(64, 64)
    const key = randomUUID()
    const first = await sendInPieces(await form([['file', image], ['title', 'Pieces']]), key, 1000)
    expect(first.status, first.body).toBe(201)
    const again = await sendInPieces(await form([['file', image], ['title', 'Pieces']]), key, 7)
    expect({ ...again, replayed: undefined }).toEqual({ ...first, replayed: undefined })
    expect([first.replayed, again.replayed]).toEqual([undefined, 'true'])
    const retitled = await sendInPieces(await form([['file', image], ['title', 'Pieces!']]), key, 7)
    expect(JSON.parse(retitled.body).code).toBe('idempotency_key_reused')
  })

  it('replays a push of 25 MiB sent again over a socket', async () => {
    const image = await uniquePng(16, 16)
    const padded = Buffer.concat([image, Buffer.alloc(MAX_IMAGE_BYTES - image.length)])
    const key = randomUUID()
    const first = await sendInPieces(await form([['file', padded]]), key, 64 * 1024)
    expect(first.status, first.body).toBe(201)
    const again = await sendInPieces(await form([['file', padded]]), key, 64 * 1024)
    expect([again.status, again.body, again.replayed]).toEqual([201, first.body, 'true'])
  }, 120_000)

  it('replays a kept 4xx even once the request would now succeed, as Stripe does', async () => {
    expect((await createCollection('Taken')).statusCode).toBe(201)
    const key = randomUUID()
    const refused = await createCollection('Taken', key)
    expectProblem(refused, 422, 'collection_name_taken')
    const taken = await db().selectFrom('collections').select('id').where('organization_id', '=', acme.org.id).where('name', '=', 'Taken').executeTakeFirstOrThrow()
    expect((await call({ method: 'DELETE', url: `/api/v1/collections/${taken.id}` })).statusCode).toBe(204)
    expectReplayOf(await createCollection('Taken', key), refused)
  })

  it('replays a 204 of a DELETE', async () => {
    const { id } = (await createCollection('Deleted once')).json()
    const key = randomUUID()
    const first = await call({ method: 'DELETE', url: `/api/v1/collections/${id}`, idempotencyKey: key })
    expect(first.statusCode).toBe(204)
    const again = await call({ method: 'DELETE', url: `/api/v1/collections/${id}`, idempotencyKey: key })
    expectReplayOf(again, first)
    expect(again.body).toBe('')
  })
})

describe('a request refused before its handler runs', () => {
  it('keeps nothing: the key is free for the corrected request', async () => {
    const key = randomUUID()
    expectProblem(await call({ method: 'POST', url: '/api/v1/collections', payload: {}, idempotencyKey: key }), 400, 'validation_failed')
    const textBody = await call({ method: 'POST', url: '/api/v1/collections', payload: 'name', idempotencyKey: key, headers: { 'content-type': 'text/plain' } })
    expectProblem(textBody, 415, 'unsupported_media_type')
    expectProblem(await call({ method: 'POST', url: '/api/v1/collections', payload: { name: 'Refused' }, key: acme.readKey, idempotencyKey: key }), 403, 'insufficient_scope')
    const corrected = await createCollection('Corrected', key)
    expect(corrected.statusCode, corrected.body).toBe(201)
    expect(corrected.headers['idempotent-replayed']).toBeUndefined()
  })
})

describe('a key used for another request', () => {
  it('is 422 idempotency_key_reused for another body, path or method, and runs nothing', async () => {
    const key = randomUUID()
    const first = await createCollection('First of its key', key)
    const { id } = first.json()
    const before = await count('collections')
    expectProblem(await createCollection('Second of its key', key), 422, 'idempotency_key_reused')
    expectProblem(await call({ method: 'PATCH', url: `/api/v1/collections/${id}`, payload: { name: 'First of its key' }, idempotencyKey: key }), 422, 'idempotency_key_reused')
    expectProblem(await call({ method: 'POST', url: '/api/v1/collections?x=1', payload: { name: 'First of its key' }, idempotencyKey: key }), 422, 'idempotency_key_reused')
    expect(await count('collections')).toBe(before)
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/collections/${id}`, headers: bearer(acme.readKey) })).json().name).toBe('First of its key')
  })

  it('runs afresh once the first answer is more than 24 hours old', async () => {
    const key = randomUUID()
    expect((await createCollection('A day ago', key)).statusCode).toBe(201)
    await sql`update idempotency_keys set created_at = now() - interval '24 hours 1 second' where key = ${key}`.execute(db())
    const later = await createCollection('A day later', key)
    expect(later.statusCode, later.body).toBe(201)
    expect(later.headers['idempotent-replayed']).toBeUndefined()
    expectReplayOf(await createCollection('A day later', key), later)
  })

  it('belongs to one API key: another key of the organization with the same value is independent', async () => {
    const other = await seedOrganization(t.app, 'Other keys')
    const sameOrgKey = (await t.app.services.keys.create({ organizationId: acme.org.id, name: 'second', scope: 'assets:write', expiresAt: null, createdBy: acme.owner.id })).token
    const key = randomUUID()
    expect((await createCollection('Key one', key)).statusCode).toBe(201)
    const second = await createCollection('Key two', key, sameOrgKey)
    expect(second.statusCode, second.body).toBe(201)
    expect(second.headers['idempotent-replayed']).toBeUndefined()
    expect((await createCollection('Key one', key, other.writeKey)).statusCode).toBe(201)
  })

  it('belongs to the web app\u2019s user too, apart from the organization\u2019s keys', async () => {
    const owner = await loginOwner(t.app, acme)
    const key = randomUUID()
    expect((await createCollection('By key', key)).statusCode).toBe(201)
    const first = await owner.post('/api/v1/collections', { name: 'By session' }, { headers: { 'idempotency-key': key } })
    expect(first.statusCode, first.body).toBe(201)
    expectReplayOf(await owner.post('/api/v1/collections', { name: 'By session' }, { headers: { 'idempotency-key': key } }), first)
  })
})

describe('a key still in use', () => {
  it('is 409 idempotency_key_in_use while the first request runs, and replays its answer after', async () => {
    await holdImage()
    const key = randomUUID()
    const push = () =>
      call({ method: 'POST', url: '/api/v1/assets', payload: { image_url: `${images.url}/held.png`, title: 'Held' }, idempotencyKey: key })
    const first = push()
    await held.asked.promise
    expectProblem(await push(), 409, 'idempotency_key_in_use')
    held.release.resolve()
    const answered = await first
    expect(answered.statusCode, answered.body).toBe(201)
    expectReplayOf(await push(), answered)
  })

  it('lets exactly one of several simultaneous requests run', async () => {
    const before = await count('collections')
    const key = randomUUID()
    const answers = await Promise.all(Array.from({ length: 6 }, () => createCollection('Simultaneous', key)))
    const ran = answers.filter((res) => res.statusCode === 201 && res.headers['idempotent-replayed'] === undefined)
    expect(ran).toHaveLength(1)
    for (const res of answers) if (res !== ran[0]) expect(res.statusCode === 409 ? res.json().code : res.headers['idempotent-replayed']).toMatch(/^(idempotency_key_in_use|true)$/)
    expect(await count('collections')).toBe(before + 1)
  })

  it('is taken over by a retry once the running request\u2019s lease has passed (it died)', async () => {
    const key = randomUUID()
    expect((await createCollection('Orphaned', key)).statusCode).toBe(201)
    // As a process that died mid-request leaves it: claimed, never answered.
    await sql`update idempotency_keys set status = null, body = null, locked_until = now() + interval '1 minute' where key = ${key}`.execute(db())
    expectProblem(await createCollection('Orphaned', key), 409, 'idempotency_key_in_use')
    await sql`update idempotency_keys set locked_until = now() - interval '1 second' where key = ${key}`.execute(db())
    // It runs again: the name is taken by the first run now.
    const retried = await createCollection('Orphaned', key)
    expectProblem(retried, 422, 'collection_name_taken')
    expect(retried.headers['idempotent-replayed']).toBeUndefined()
  })

  it('is taken over at once by a retry when the process running it is gone (its lease with it), not 60 s later', async () => {
    const key = randomUUID()
    const first = await createCollection('Crashed', key)
    expect(first.statusCode).toBe(201)
    const { claim } = await db().selectFrom('idempotency_keys').select('claim').where('key', '=', key).executeTakeFirstOrThrow()
    expect(claim).toMatch(/^\d+:/)
    // Another serving process, running the request: claimed, not answered, its lease held.
    const other = await otherProcessLease(t)
    await sql`update idempotency_keys set status = null, body = null, locked_until = now() + interval '1 minute', claim = ${claimBy(other)} where key = ${key}`.execute(db())
    expectProblem(await createCollection('Crashed', key), 409, 'idempotency_key_in_use')
    // Killed: its session ends, and its lease with it.
    await endLease(t, other)
    // A claim from before leases names no process: it holds the key for its 60 s.
    await sql`update idempotency_keys set claim = ${randomUUID()} where key = ${key}`.execute(db())
    expectProblem(await createCollection('Crashed', key), 409, 'idempotency_key_in_use')
    await sql`update idempotency_keys set claim = ${claimBy(other)} where key = ${key}`.execute(db())
    // It runs again at once: the name is taken by the first run now.
    const retried = await createCollection('Crashed', key)
    expectProblem(retried, 422, 'collection_name_taken')
    expect(retried.headers['idempotent-replayed']).toBeUndefined()
  })

  it.runIf(onPostgres)('is held again by its process once the connection holding its lease drops', async () => {
    const lease = await otherProcessLease(t)
    try {
      const holder = async () =>
        (await sql<{ pid: number }>`select pid from pg_locks where locktype = 'advisory' and objid = ${lease.id} and objsubid = 2 and granted`.execute(db())).rows[0]?.pid
      const first = await holder()
      expect(first).toBeDefined()
      await sql`select pg_terminate_backend(${first})`.execute(db())
      await waitFor('the lease taken again on a new connection', async () => {
        const pid = await holder()
        return pid !== undefined && pid !== first
      })
    } finally {
      await lease.close()
    }
  })

  it('keeps the answer of a request whose client went away before it was answered', async () => {
    await holdImage()
    const key = randomUUID()
    const payload = JSON.stringify({ image_url: `${images.url}/held.png`, title: 'Abandoned' })
    const headers = { ...bearer(acme.writeKey), 'content-type': 'application/json', 'idempotency-key': key }
    const abandoned = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/assets', headers })
    abandoned.on('error', () => undefined)
    abandoned.end(payload)
    await held.asked.promise
    abandoned.destroy()
    held.release.resolve()
    await waitFor('the answer to be kept', async () => (await db().selectFrom('idempotency_keys').select('status').where('key', '=', key).executeTakeFirst())?.status)
    const retry = await call({ method: 'POST', url: '/api/v1/assets', payload: JSON.parse(payload), idempotencyKey: key })
    expect(retry.statusCode, retry.body).toBe(201)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(await db().selectFrom('assets').select('id').where('title', '=', 'Abandoned').execute()).toHaveLength(1)
  })
})

/**
 * Bytes whose files cannot be written: a plain file stands where their fan-out directory (`<blobDir>/ab/cd`)
 * would be made, so a push of them fails with a 500 until `unblock`.
 */
async function unwritable(blobDir: string) {
  const bytes = await uniquePng()
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  const fanOut = join(blobDir, sha256.slice(0, 2), sha256.slice(2, 4))
  if (existsSync(fanOut)) return unwritable(blobDir)
  mkdirSync(dirname(fanOut), { recursive: true })
  writeFileSync(fanOut, 'not a directory')
  return { bytes, unblock: () => rmSync(fanOut) }
}

describe('what is not kept', () => {
  it('a 5xx: the retry runs', async () => {
    const image = await unwritable(t.config.blobDir)
    const key = randomUUID()
    const push = () => call({ method: 'POST', url: '/api/v1/assets', payload: { image_base64: image.bytes.toString('base64') }, idempotencyKey: key })
    try {
      expectProblem(await push(), 500, 'internal_error')
    } finally {
      image.unblock()
    }
    const retried = await push()
    expect(retried.statusCode, retried.body).toBe(201)
    expect(retried.headers['idempotent-replayed']).toBeUndefined()
  })

  it('a key that is empty or longer than 255 characters: 400, and nothing runs', async () => {
    const before = await count('collections')
    expectInvalid(await createCollection('Bad key', 'k'.repeat(MAX_KEY_LENGTH + 1)), '/headers/idempotency-key')
    expectInvalid(await createCollection('Bad key', ''), '/headers/idempotency-key')
    expect(await count('collections')).toBe(before)
    expect((await createCollection('Good key', 'k'.repeat(MAX_KEY_LENGTH))).statusCode).toBe(201)
  })

  it('a request without the header: no statement about keys is sent', async () => {
    const statements: string[] = []
    const original = pg.Client.prototype.query
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [query] = args as [string | { text: string }]
      statements.push(typeof query === 'string' ? query : query.text)
      return (original as (...a: unknown[]) => unknown).apply(this, args)
    } as typeof original
    try {
      expect((await createCollection('Without a key')).statusCode).toBe(201)
      const withoutKey = statements.splice(0)
      expect((await createCollection('With a key', randomUUID())).statusCode).toBe(201)
      expect(withoutKey.filter((text) => text.includes('idempotency_keys'))).toEqual([])
      // The claim and the answer; the count of every statement would take in the background work's too.
      expect(statements.filter((text) => text.includes('idempotency_keys'))).toHaveLength(2)
    } finally {
      pg.Client.prototype.query = original
    }
  })
})

describe('pruning', () => {
  it('removes the answers older than 24 hours as soon as it is scheduled, and keeps the others', async () => {
    const [old, fresh] = [randomUUID(), randomUUID()]
    expect((await createCollection('Pruned', old)).statusCode).toBe(201)
    expect((await createCollection('Kept', fresh)).statusCode).toBe(201)
    await sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = ${old}`.execute(db())
    const kept = () => db().selectFrom('idempotency_keys').select('key').where('key', 'in', [old, fresh]).execute()
    const stop = scheduleIdempotencyPruning(db(), { intervalMs: 60_000, logger: silentLogger })
    try {
      await waitFor('the old answer to be pruned', async () => (await kept()).length === 1)
    } finally {
      await stop()
    }
    expect((await kept()).map((row) => row.key)).toEqual([fresh])
  })
})
