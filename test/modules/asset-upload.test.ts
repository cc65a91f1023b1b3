import { connect, type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_IMAGE_BYTES } from '../../src/modules/assets/push.js'
import { PushForm } from '../../src/modules/assets/schemas.js'
import { PUSH_FORM_OPTIONS } from '../../src/modules/assets/upload.js'
import { uuidv7 } from '../../src/platform/ids.js'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectInvalid, expectProblem, organizationApi, outboxEvents, type OrganizationApi } from '../support/fixtures.js'
import { startServer, type TestServer } from '../support/http-server.js'
import { solid, uniquePng } from '../support/images.js'

/** POST /api/v1/assets as multipart/form-data: the same rules, answers and events as the JSON push. */

let t: TestApp
let acme: Seeded
let images: TestServer
let get: OrganizationApi['get']

type FormValue = string | Buffer | { file: Buffer; name?: string; type?: string }

/** A real multipart body, as fetch would send it: FormData serialised by `Response`. */
async function formBody(entries: Array<[string, FormValue]>): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData()
  for (const [name, value] of entries) {
    if (typeof value === 'string') form.append(name, value)
    else if (Buffer.isBuffer(value)) form.append(name, new Blob([value]), 'image.png')
    else form.append(name, new Blob([value.file], { type: value.type ?? 'application/octet-stream' }), value.name ?? 'image.png')
  }
  const response = new Response(form)
  return { payload: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! }
}

/** A multipart body written by hand, for parts FormData cannot make (no file name, a JSON part, odd headers). */
function rawForm(parts: Array<{ headers: string[]; body: string | Buffer }>, boundary = 'test-boundary-7MA4YWxkTrZu0gW') {
  const chunks = parts.flatMap(({ headers, body }) => [Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`), Buffer.from(body), Buffer.from('\r\n')])
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` }
}

const send = (body: { payload: Buffer; contentType: string }, key = acme.writeKey, app = t.app) =>
  app.inject({ method: 'POST', url: '/api/v1/assets', headers: { ...bearer(key), 'content-type': body.contentType }, payload: body.payload })
const upload = async (entries: Array<[string, FormValue]>, key = acme.writeKey) => send(await formBody(entries), key)
const db = () => t.database.handle.db

beforeAll(async () => {
  t = await startTestApp({
    env: { OUTBOUND_ALLOWLIST: '127.0.0.1/32', RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000' },
  })
  acme = await seedOrganization(t.app, 'Acme')
  ;({ get } = organizationApi(t.app, acme))
  const photo = await solid(300, 200, '#204060').png().toBuffer()
  images = await startServer((req, res) => {
    if (req.url === '/photo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(photo)
    else res.writeHead(404).end()
  })
})
afterAll(async () => {
  await images.close()
  await t.close()
})

describe('a multipart push', () => {
  it('stores the file with its fields, answers 201 and emits asset.created', async () => {
    const res = await upload([
      ['file', await solid(600, 300, '#445566').png().toBuffer()],
      ['title', ' Logo '],
      ['asset_type', 'banner'],
      ['client', 'Initech'],
      ['product', 'Stapler'],
      ['tag_names', 'Brand'],
      ['tag_names', 'logo'],
      ['tag_names', 'brand'],
      ['source_url', 'https://figma.com/file/xyz'],
      ['created_by_ai', 'false'],
    ])
    expect(res.statusCode, res.body).toBe(201)
    const { asset_id: id, duplicate } = res.json()
    expect(duplicate).toBe(false)
    expect((await get(`/api/v1/assets/${id}`)).json()).toMatchObject({
      id,
      title: 'Logo',
      asset_type: 'Banner',
      client: 'Initech',
      product: 'Stapler',
      tags: ['Brand', 'logo'],
      source_url: 'https://figma.com/file/xyz',
      created_by_ai: false,
      mime_type: 'image/png',
      width: 600,
      height: 300,
    })
    const events = await outboxEvents(db(), acme.org.id, 'asset.created')
    expect(events.find((e) => e.id === id)).toMatchObject({ id, title: 'Logo', tags: ['Brand', 'logo'], created_by_ai: false })
  })

  it('answers the same bytes with 200 and the existing id, from a form or from JSON, firing no event', async () => {
    const bytes = await uniquePng()
    const first = await t.app.inject({ method: 'POST', url: '/api/v1/assets', headers: bearer(acme.writeKey), payload: { image_base64: bytes.toString('base64'), title: 'first' } })
    expect(first.statusCode).toBe(201)
    const before = (await outboxEvents(db(), acme.org.id, 'asset.created')).length
    const again = await upload([['file', bytes], ['title', 'second']])
    expect(again.statusCode).toBe(200)
    expect(again.json()).toEqual({ asset_id: first.json().asset_id, duplicate: true })
    expect((await get(`/api/v1/assets/${first.json().asset_id}`)).json().title).toBe('first')
    expect(await outboxEvents(db(), acme.org.id, 'asset.created')).toHaveLength(before)
  })

  it('takes tag_names as one JSON array and defaults created_by_ai to true', async () => {
    const res = await upload([['file', await uniquePng()], ['tag_names', '["summer", "Hero", "summer"]']])
    expect(res.statusCode, res.body).toBe(201)
    expect((await get(`/api/v1/assets/${res.json().asset_id}`)).json()).toMatchObject({ tags: ['Hero', 'summer'], created_by_ai: true, title: '' })
    const mixed = await upload([['file', await uniquePng()], ['tag_names', '["a","b"]'], ['tag_names', 'c'], ['created_by_ai', 'true']])
    expect((await get(`/api/v1/assets/${mixed.json().asset_id}`)).json()).toMatchObject({ tags: ['a', 'b', 'c'], created_by_ai: true })
    const none = await upload([['file', await uniquePng()], ['tag_names', '[]']])
    expect((await get(`/api/v1/assets/${none.json().asset_id}`)).json().tags).toEqual([])
  })

  it('fetches image_url when the form carries no file', async () => {
    const res = await upload([['image_url', `${images.url}/photo.png`], ['title', 'Fetched']])
    expect(res.statusCode, res.body).toBe(201)
    expect((await get(`/api/v1/assets/${res.json().asset_id}`)).json()).toMatchObject({ title: 'Fetched', width: 300, height: 200 })
  })

  it('reads the bytes, never the part\u2019s file name or Content-Type', async () => {
    const text = Buffer.from('hello, I am a text file named logo.png')
    expectProblem(await upload([['file', { file: text, name: 'logo.png', type: 'image/png' }]]), 422, 'not_an_image')
    const png = await uniquePng()
    const res = await upload([['file', { file: png, name: 'notes.txt', type: 'text/plain' }]])
    expect(res.statusCode).toBe(201)
    expect((await get(`/api/v1/assets/${res.json().asset_id}`)).json().mime_type).toBe('image/png')
    const longName = await upload([['file', { file: await uniquePng(), name: `${'x'.repeat(100_000)}.png` }]])
    expect(longName.statusCode).toBe(201)
  })

  it('takes a file part sent without a file name (curl -F "file=<logo.png")', async () => {
    const png = await uniquePng()
    const res = await send(rawForm([{ headers: ['Content-Disposition: form-data; name="file"'], body: png }, { headers: ['Content-Disposition: form-data; name="title"'], body: 'Plain' }]))
    expect(res.statusCode, res.body).toBe(201)
    expect((await get(`/api/v1/assets/${res.json().asset_id}`)).json()).toMatchObject({ title: 'Plain', byte_size: png.length })
  })

  it('takes a field declared as application/json', async () => {
    const res = await send(
      rawForm([
        { headers: ['Content-Disposition: form-data; name="file"; filename="a.png"', 'Content-Type: image/png'], body: await uniquePng() },
        { headers: ['Content-Disposition: form-data; name="tag_names"', 'Content-Type: application/json'], body: '["json", "part"]' },
      ]),
    )
    expect(res.statusCode, res.body).toBe(201)
    expect((await get(`/api/v1/assets/${res.json().asset_id}`)).json().tags).toEqual(['json', 'part'])
  })

  it('adds the asset to a named manual collection, and refuses an unknown one with 404', async () => {
    const id = uuidv7()
    await db().insertInto('collections').values({ id, organization_id: acme.org.id, name: 'Uploads', kind: 'manual', query: null, updated_at: new Date() }).execute()
    const res = await upload([['file', await uniquePng()], ['collection_name', 'uploads']])
    expect(res.statusCode).toBe(201)
    expect((await get(`/api/v1/assets/${res.json().asset_id}`)).json().collections).toEqual([{ id, name: 'Uploads' }])
    expectProblem(await upload([['file', await uniquePng()], ['collection_name', 'Nope']]), 404, 'not_found')
  })

  it('needs a write key, checked before the body is read', async () => {
    expectProblem(await upload([['file', await uniquePng()]], acme.readKey), 403, 'insufficient_scope')
    const body = await formBody([['file', await uniquePng()]])
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/assets', headers: { 'content-type': body.contentType }, payload: body.payload })
    expectProblem(res, 401, 'invalid_api_key')
  })
})

describe('a multipart push is validated like the JSON body', () => {
  it('refuses bad fields with 400 and a pointer to each, all at once', async () => {
    const res = await upload([
      ['file', await uniquePng()],
      ['client', ' '],
      ['created_by_ai', 'no'],
      ['source_url', 'ftp://example.com/a.png'],
      ['tag_names', 'ok'],
      ['tag_names', 'x'.repeat(101)],
    ])
    expectInvalid(res, '/client', '/created_by_ai', '/source_url', '/tag_names/1')
    expect(res.json().errors).toContainEqual({ pointer: '/client', detail: 'must not be blank' })
  })

  it('gives the same field problems as the JSON body', async () => {
    const fields = { title: 'x'.repeat(501), client: '', created_by_ai: 'yes' }
    const json = await t.app.inject({ method: 'POST', url: '/api/v1/assets', headers: bearer(acme.writeKey), payload: { image_base64: (await uniquePng()).toString('base64'), ...fields } })
    const form = await upload([['file', await uniquePng()], ...Object.entries(fields)])
    expect(form.statusCode).toBe(400)
    expect(form.json().errors).toEqual(json.json().errors)
  })

  it.each([
    ['an unknown field', [['colour', 'red']], '/colour'],
    ['image_base64, which a form sends as the file part', [['image_base64', 'aGVsbG8=']], '/image_base64'],
    ['a scalar field sent twice', [['title', 'a'], ['title', 'b']], '/title'],
    ['tag_names that start like JSON but are not', [['tag_names', '["a", "b"']], '/tag_names'],
    ['tag_names as JSON that is not a list of names', [['tag_names', '[1, "b"]']], '/tag_names/0'],
    ['more than 100 tags', Array.from({ length: 101 }, (_, i) => ['tag_names', `t${i}`]), '/tag_names'],
    ['a value over the field size', [['title', 'x'.repeat(100_000)]], '/title'],
  ] as Array<[string, Array<[string, string]>, string]>)('refuses %s with 400 and stores nothing', async (_label, fields, pointer) => {
    const before = (await outboxEvents(db(), acme.org.id, 'asset.created')).length
    expectInvalid(await upload([['file', await uniquePng()], ...fields]), pointer)
    expect(await outboxEvents(db(), acme.org.id, 'asset.created')).toHaveLength(before)
  })

  it('names an unknown field with its detail, like the JSON body', async () => {
    const res = await upload([['file', await uniquePng()], ['colour', 'red']])
    expect(res.json().errors).toEqual([{ pointer: '/colour', detail: 'is not a known field' }])
  })

  it('needs exactly one of a file and image_url', async () => {
    expectInvalid(await upload([['file', await uniquePng()], ['image_url', `${images.url}/photo.png`]]), '/file')
    expectInvalid(await upload([['title', 'no image']]), '/file')
    const empty = await formBody([])
    expectInvalid(await send(empty), '/file')
  })

  it('refuses a second file, a file under another name and an empty file with 400', async () => {
    expectInvalid(await upload([['file', await uniquePng()], ['file', await uniquePng()]]), '/file')
    expectInvalid(await upload([['image', await uniquePng()]]), '/image')
    expectInvalid(await upload([['file', Buffer.alloc(0)]]), '/file')
  })

  it('refuses a form with more fields than a push has with 413, and a broken one with 400', async () => {
    const fields = Array.from({ length: 200 }, (_, i): [string, string] => [`f${i}`, 'x'])
    expectProblem(await upload([['file', await uniquePng()], ...fields]), 413, 'body_too_large')
    const { payload, contentType } = await formBody([['file', await uniquePng()], ['title', 'cut']])
    expectProblem(await send({ payload: payload.subarray(0, payload.length - 60), contentType }), 400, 'bad_request')
    expectProblem(await send({ payload, contentType: 'multipart/form-data' }), 400, 'bad_request')
    const proto = rawForm([{ headers: ['Content-Disposition: form-data; name="__proto__"'], body: '{}' }])
    expectProblem(await send(proto), 400, 'bad_request')
    const badJson = rawForm([{ headers: ['Content-Disposition: form-data; name="tag_names"', 'Content-Type: application/json'], body: '[oops' }])
    expectProblem(await send(badJson), 400, 'bad_request')
  })

  it('never lets a truncated field value through: every push field is far shorter than the field size', () => {
    const fieldSize = PUSH_FORM_OPTIONS.limits!.fieldSize!
    const longest = JSON.stringify(PushForm).match(/"maxLength":\d+/g)!.map((m) => Number(m.split(':')[1]))
    // A value cut at fieldSize bytes still holds at least fieldSize / 4 characters, more than any maxLength.
    expect(Math.max(...longest)).toBeLessThan(fieldSize / 4)
  })
})

describe('the 25 MiB cap on an uploaded file', () => {
  const padded = async (size: number) => {
    const image = await uniquePng(16, 16)
    return Buffer.concat([image, Buffer.alloc(size - image.length)])
  }

  it('accepts exactly 25 MiB and refuses one byte more with 413', async () => {
    expect((await upload([['file', await padded(MAX_IMAGE_BYTES)]])).statusCode).toBe(201)
    expectProblem(await upload([['file', await padded(MAX_IMAGE_BYTES + 1)]]), 413, 'image_too_large')
  })

  /**
   * Streams a push whose file part is `total` bytes to the listening app over a plain socket, which goes on
   * writing whatever the answer (as a client that does not read answers early would); resolves once the
   * socket is done, with how much had been written when the answer arrived.
   */
  function rawUpload(port: number, total: number) {
    const boundary = 'stream-boundary-x1'
    const partHead = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`)
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
    const head = [
      'POST /api/v1/assets HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: Bearer ${acme.writeKey}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${partHead.length + total + tail.length}`,
      '',
      '',
    ].join('\r\n')
    const chunk = Buffer.alloc(64 * 1024, 7)
    return new Promise<{ answer: string; writtenAtAnswer: number; written: number; error: Error | undefined; closedByServer: boolean }>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      let written = 0
      let writtenAtAnswer = -1
      let answer = ''
      let error: Error | undefined
      let closedByServer = false
      let ending = false
      socket.on('data', (data: Buffer) => {
        if (writtenAtAnswer < 0) writtenAtAnswer = written
        answer += data.toString()
      })
      socket.on('error', (e) => (error = e))
      socket.on('end', () => (closedByServer = !ending))
      socket.on('close', () => resolve({ answer, writtenAtAnswer, written, error, closedByServer }))
      const pump = () => {
        while (written < total && !socket.destroyed) {
          written += chunk.length
          if (!socket.write(chunk)) return void socket.once('drain', pump)
        }
        if (socket.destroyed) return
        // All sent: a server that kept the connection has its answer read by now; let go of it.
        socket.write(tail, () =>
          setTimeout(() => {
            ending = true
            socket.end()
          }, 200),
        )
      }
      socket.write(head)
      socket.write(partHead)
      pump()
    })
  }

  it('answers a 40 MiB upload with 413 as soon as it passes 25 MiB, without reading or holding the rest', async () => {
    // Bytes the server had read from the socket when it answered.
    let readAtAnswer = 0
    const server = await startTestApp({
      database: t.database,
      routes: (app) => app.addHook('onSend', async (request) => void (readAtAnswer = request.raw.socket?.bytesRead ?? 0)),
    })
    try {
      await server.app.listen({ host: '127.0.0.1', port: 0 })
      const total = 40 * 1024 * 1024
      const sent = await rawUpload((server.app.server.address() as AddressInfo).port, total)
      expect(sent.answer).toMatch(/^HTTP\/1\.1 413 /)
      expect(sent.answer).toContain('"code":"image_too_large"')
      // The server had read a little past the cap when it answered, while the client still had megabytes to send.
      expect(readAtAnswer).toBeGreaterThan(MAX_IMAGE_BYTES)
      expect(readAtAnswer).toBeLessThan(MAX_IMAGE_BYTES + 2 * 1024 * 1024)
      expect(sent.writtenAtAnswer).toBeLessThan(total - 4 * 1024 * 1024)
      // The rest was read and dropped: the client could send it all, and the connection stayed open.
      expect(sent.written).toBe(total)
      expect(sent.error).toBeUndefined()
      expect(sent.closedByServer).toBe(false)
    } finally {
      await server.close()
    }
  })

  it('closes the connection of a sender that goes on far past the cap, after answering 413', async () => {
    const server = await startTestApp({ database: t.database })
    try {
      await server.app.listen({ host: '127.0.0.1', port: 0 })
      const sent = await rawUpload((server.app.server.address() as AddressInfo).port, 400 * 1024 * 1024)
      expect(sent.answer).toMatch(/^HTTP\/1\.1 413 /)
      expect(sent.written).toBeLessThan(120 * 1024 * 1024)
    } finally {
      await server.close()
    }
  })
})

describe('content types', () => {
  it('refuses any other body type on the push with 415, before reading it', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/mixed; boundary=x']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/assets', headers: { ...bearer(acme.writeKey), 'content-type': type }, payload: 'title=x' })
      expect(expectProblem(res, 415, 'unsupported_media_type').detail).toBe('Send the push as application/json or multipart/form-data.')
    }
    const none = await t.app.inject({ method: 'POST', url: '/api/v1/assets', headers: bearer(acme.writeKey) })
    expectInvalid(none, '/')
  })

  it('still refuses multipart on every other route with the same 415 as before', async () => {
    const body = await formBody([['name', 'Form'], ['file', await uniquePng()]])
    const headers = { ...bearer(acme.writeKey), 'content-type': body.contentType }
    for (const [method, url] of [
      ['POST', '/api/v1/collections'],
      ['POST', '/api/v1/search'],
      ['PATCH', `/api/v1/assets/${uuidv7()}`],
      ['POST', '/app/api/login'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers, payload: body.payload })
      expect(expectProblem(res, 415, 'unsupported_media_type').detail, url).toBe('Send the body as application/json.')
    }
  })
})

describe('rate limits', () => {
  it('count multipart and JSON pushes in the one expensive bucket', async () => {
    const limited = await startTestApp({ database: t.database, env: { RATE_LIMIT_EXPENSIVE: '3' } })
    try {
      const json = await limited.app.inject({ method: 'POST', url: '/api/v1/assets', headers: bearer(acme.writeKey), payload: { image_base64: (await uniquePng()).toString('base64') } })
      expect(json.statusCode).toBe(201)
      expect(json.headers['x-ratelimit-remaining']).toBe('2')
      const form = await send(await formBody([['file', await uniquePng()]]), acme.writeKey, limited.app)
      expect(form.statusCode).toBe(201)
      expect(form.headers['x-ratelimit-limit']).toBe('3')
      expect(form.headers['x-ratelimit-remaining']).toBe('1')
      const search = await limited.app.inject({ method: 'POST', url: '/api/v1/search', headers: bearer(acme.writeKey), payload: { q: 'logo' } })
      expect(search.statusCode).toBe(200)
      const over = await send(await formBody([['file', await uniquePng()]]), acme.writeKey, limited.app)
      expectProblem(over, 429, 'rate_limited')
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0)
    } finally {
      await limited.close()
    }
  })
})
