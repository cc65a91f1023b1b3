import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FIGMA_EVENT_BODY_LIMIT } from '../../src/modules/integrations/routes.js'
import { sha256Hex } from '../../src/platform/crypto.js'
import { startTestApp, type Seeded } from '../support/app.js'
import { startFakeFigma, type FakeFigma } from '../support/fake-figma.js'
import { expectInvalid, expectProblem } from '../support/fixtures.js'
import { captureLogs, type CapturedLogs } from '../support/logs.js'
import { createImport, figmaLink, getImport, IMPORT_TEST_ENV, importEnded } from '../support/imports.js'
import { startServed } from '../support/served.js'
import { loginOwner, signedInMember, type Client } from '../support/sessions.js'
import { waitFor } from '../support/wait.js'

/** Figma webhooks: registered at the fake Figma from the app API, and its events received on a real socket. */
let figma: FakeFigma
let logs: CapturedLogs
let served: Awaited<ReturnType<typeof startServed>>
let acme: Seeded
let globex: Seeded
let owner: Client
let heroId: string

const TOKEN = 'figd_acme-designer-0123456789'
const FILE_KEY = 'HookedFile0123456789'
const FILE_URL = `https://www.figma.com/design/${FILE_KEY}/Brand-kit?node-id=1-2`
const webhooksUrl = (seeded: Seeded) => `/app/api/orgs/${seeded.org.slug}/integrations/figma/webhooks`
const connectionUrl = (seeded: Seeded) => `/app/api/orgs/${seeded.org.slug}/integrations/figma`

interface FigmaWebhook {
  id: string
  figma_webhook_id: string
  event_type: string
  context: string
  context_id: string
  endpoint: string
}

beforeAll(async () => {
  figma = await startFakeFigma()
  figma.addToken(TOKEN, { id: '1001', handle: 'Dana Designer', email: 'dana@acme.example' })
  const file = figma.file(FILE_KEY, 'Brand kit')
  heroId = file.addFrame(file.addPage('Cover'), 'Hero')
  logs = captureLogs()
  served = await startServed({ env: { ...IMPORT_TEST_ENV, ...figma.env, FIGMA_MAX_RETRY_WAIT_MS: '0', FIGMA_WEBHOOK_DEBOUNCE_MS: '1000' }, logger: logs.logger })
  ;({ acme, globex } = served)
  owner = await loginOwner(served.t.app, acme)
  await served.t.app.services.importJob.start()
})
afterAll(async () => {
  await served.close()
  await figma.close()
})
beforeEach(() => figma.reset())

/** Posts a body to the receiving endpoint over the socket, as Figma would. */
function postEvent(slug: string, body: unknown) {
  return fetch(`${served.url}/hooks/figma/${slug}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) })
}

describe('registering a Figma webhook', () => {
  it('needs the organization\u2019s stored token', async () => {
    expectProblem(await owner.post(webhooksUrl(acme), { event_type: 'FILE_UPDATE', file_url: FILE_URL }), 422, 'figma_not_connected')
    expect((await owner.put(connectionUrl(acme), { token: TOKEN })).statusCode).toBe(200)
  })

  it('needs a PUBLIC_BASE_URL Figma can reach, unless OUTBOUND_ALLOWLIST names its host', async () => {
    for (const publicBaseUrl of ['http://assets.test', 'http://127.0.0.1:9', 'http://localhost:3000', 'http://10.1.2.3', 'https://assets.local', 'http://[::1]:3000']) {
      const other = await startTestApp({ database: served.t.database, env: { FIGMA_API_URL: figma.url, PUBLIC_BASE_URL: publicBaseUrl } })
      try {
        const res = await (await loginOwner(other.app, acme)).post(webhooksUrl(acme), { event_type: 'FILE_UPDATE', file_url: FILE_URL })
        expect(expectProblem(res, 422, 'public_url_required').detail, publicBaseUrl).toContain(publicBaseUrl)
      } finally {
        await other.close()
      }
    }
    expect(figma.calls.webhooks).toBe(0)

    // A public one goes through to Figma (which would call it; the fake does not).
    const other = await startTestApp({ database: served.t.database, env: { ...figma.env, PUBLIC_BASE_URL: 'https://assets.example.com' } })
    try {
      const client = await loginOwner(other.app, acme)
      const res = await client.post(webhooksUrl(acme), { event_type: 'LIBRARY_PUBLISH', context: 'team', context_id: '1234567890' })
      expect(res.statusCode, res.body).toBe(201)
      expect(res.json().endpoint).toBe(`https://assets.example.com/hooks/figma/${acme.org.slug}`)
      expect((await client.delete(`${webhooksUrl(acme)}/${res.json().id}`)).statusCode).toBe(204)
      expect(figma.webhooks()).toEqual([])
    } finally {
      await other.close()
    }
    // Seven apps are built one after another here; on a loaded CI machine that passed the 30 s default once.
  }, 120_000)

  it('registers it at Figma with a passcode of its own, kept only as its hash, once', async () => {
    const res = await owner.post(webhooksUrl(acme), { event_type: 'FILE_UPDATE', file_url: FILE_URL })
    expect(res.statusCode, res.body).toBe(201)
    const webhook = res.json<FigmaWebhook>()
    expect(webhook).toEqual({
      id: expect.any(String),
      event_type: 'FILE_UPDATE',
      context: 'file',
      context_id: FILE_KEY,
      figma_webhook_id: expect.any(String),
      endpoint: `${served.url}/hooks/figma/${acme.org.slug}`,
      created_at: expect.any(String),
    })
    const [atFigma] = figma.webhooks()
    expect(atFigma).toMatchObject({ id: webhook.figma_webhook_id, event_type: 'FILE_UPDATE', context_id: FILE_KEY, endpoint: webhook.endpoint })
    expect(figma.requests.find((request) => request.method === 'POST')?.token).toBe(TOKEN)

    const passcode = figma.eventPayload(webhook.figma_webhook_id).passcode
    expect(passcode.length).toBeGreaterThanOrEqual(40)
    const row = await served.t.database.handle.db.selectFrom('figma_webhooks').selectAll().where('id', '=', webhook.id).executeTakeFirstOrThrow()
    expect(row.passcode_hash).toBe(sha256Hex(passcode))
    expect(res.body).not.toContain(passcode)

    // The same again is the one there is.
    const again = await owner.post(webhooksUrl(acme), { event_type: 'FILE_UPDATE', context: 'file', context_id: FILE_KEY })
    expect(again.statusCode).toBe(201)
    expect(again.json()).toEqual(webhook)
    expect(figma.webhooks()).toHaveLength(1)

    expect((await owner.get(webhooksUrl(acme))).json()).toEqual({ data: [webhook] })
    expect((await (await loginOwner(served.t.app, globex)).get(webhooksUrl(globex))).json()).toEqual({ data: [] })
  })

  it('refuses what is not a file, project or team, members, and Figma\u2019s refusals', async () => {
    expectProblem(await owner.post(webhooksUrl(acme), { event_type: 'FILE_UPDATE', file_url: 'https://example.com/file/HookedFile0123456789' }), 400, 'invalid_figma_url')
    expectInvalid(await owner.post(webhooksUrl(acme), { event_type: 'FILE_UPDATE' }), '/context_id')
    expectInvalid(await owner.post(webhooksUrl(acme), { event_type: 'FILE_UPDATE', file_url: FILE_URL, context: 'team' }), '/file_url')
    expectInvalid(await owner.post(webhooksUrl(acme), { event_type: 'FILE_DELETE', file_url: FILE_URL }), '/event_type')
    const member = await signedInMember(served.t.app, acme.org.id, 'member')
    expectProblem(await member.get(webhooksUrl(acme)), 403, 'role_required')
    expectProblem(await member.post(webhooksUrl(acme), { event_type: 'FILE_UPDATE', file_url: FILE_URL }), 403, 'role_required')

    figma.failNext(5, 500)
    expectProblem(await owner.post(webhooksUrl(acme), { event_type: 'LIBRARY_PUBLISH', file_url: FILE_URL }), 502, 'figma_unavailable')
    // Nothing is kept of a webhook Figma did not register.
    expect((await owner.get(webhooksUrl(acme))).json().data).toHaveLength(1)
  })
})

describe('Figma\u2019s events', () => {
  let webhook: FigmaWebhook

  beforeAll(async () => {
    ;[webhook] = (await owner.get(webhooksUrl(acme))).json<{ data: FigmaWebhook[] }>().data as [FigmaWebhook]
  })

  it('are answered 200 when the passcode is the organization\u2019s: a PING does nothing, saves of the file sync its imports once', async () => {
    // An import with the organization's stored token (no figma_token of its own).
    const importId = await createImport(served.t.app, acme.writeKey, { file_url: figmaLink(FILE_KEY), figma_token: undefined })
    expect(await importEnded(served.t.app, acme.writeKey, importId)).toMatchObject({ status: 'done', run: 1, created: 1 })

    expect(await figma.sendEvent(webhook.figma_webhook_id, { eventType: 'PING' })).toBe(200)
    expect((await getImport(served.t.app, acme.writeKey, importId)).run).toBe(1)

    figma.file(FILE_KEY).edit(heroId)
    for (let save = 0; save < 3; save++) expect(await figma.sendEvent(webhook.figma_webhook_id)).toBe(200)
    const synced = await waitFor('the sync to end', async () => {
      const record = await getImport(served.t.app, acme.writeKey, importId)
      return record.run === 2 && record.status === 'done' ? record : undefined
    })
    expect(synced).toMatchObject({ created: 0, updated: 1, unchanged: 0 })
    const line = logs.text().split('\n').find((one) => one.includes('a Figma event queued the file'))!
    expect(JSON.parse(line)).toMatchObject({ organizationId: acme.org.id, fileKey: FILE_KEY, event: 'FILE_UPDATE', imports: 1 })
    // Three saves, one sync.
    expect((await getImport(served.t.app, acme.writeKey, importId)).run).toBe(2)
  })

  it('are refused the same way for a wrong passcode, another organization and an unknown one', async () => {
    const forged = await postEvent(acme.org.slug, figma.eventPayload(webhook.figma_webhook_id, { passcode: 'not-the-passcode' }))
    expect(forged.status).toBe(403)
    const forgedBody: unknown = await forged.json()
    expect(forgedBody).toMatchObject({ code: 'figma_passcode_invalid' })

    const genuine = figma.eventPayload(webhook.figma_webhook_id)
    for (const slug of [globex.org.slug, 'no-such-organization']) {
      const res = await postEvent(slug, genuine)
      expect(res.status, slug).toBe(403)
      expect(await res.json()).toEqual(forgedBody)
    }
    expect(await figma.sendEvent(webhook.figma_webhook_id, { passcode: genuine.passcode.slice(0, -1) })).toBe(403)
  })

  it('are refused past a small body, or when they are not Figma\u2019s shape', async () => {
    const huge = { ...figma.eventPayload(webhook.figma_webhook_id), padding: 'x'.repeat(FIGMA_EVENT_BODY_LIMIT) }
    const tooLarge = await postEvent(acme.org.slug, huge)
    expect(tooLarge.status).toBe(413)
    expect(await tooLarge.json()).toMatchObject({ code: 'body_too_large' })
    expect((await postEvent(acme.org.slug, { event_type: 'FILE_UPDATE' })).status).toBe(400)
    expect((await postEvent(acme.org.slug, 'not json')).status).toBe(400)
  })

  it('stop with the webhook removed, here and at Figma', async () => {
    const genuine = figma.eventPayload(webhook.figma_webhook_id)
    expectProblem(await (await loginOwner(served.t.app, globex)).delete(`${webhooksUrl(globex)}/${webhook.id}`), 404, 'not_found')
    expect((await owner.delete(`${webhooksUrl(acme)}/${webhook.id}`)).statusCode).toBe(204)
    expect(figma.webhooks()).toEqual([])
    expect((await postEvent(acme.org.slug, genuine)).status).toBe(403)
    expectProblem(await owner.delete(`${webhooksUrl(acme)}/${webhook.id}`), 404, 'not_found')
  })

  it('stop when the token is removed, which removes every webhook at Figma', async () => {
    const first = await owner.post(webhooksUrl(acme), { event_type: 'FILE_UPDATE', file_url: FILE_URL })
    const second = await owner.post(webhooksUrl(acme), { event_type: 'LIBRARY_PUBLISH', file_url: FILE_URL })
    expect([first.statusCode, second.statusCode]).toEqual([201, 201])
    expect(figma.webhooks()).toHaveLength(2)
    const genuine = figma.eventPayload(second.json().figma_webhook_id)
    expect((await postEvent(acme.org.slug, genuine)).status).toBe(200)

    expect((await owner.delete(connectionUrl(acme))).statusCode).toBe(204)
    expect(figma.webhooks()).toEqual([])
    expect((await owner.get(webhooksUrl(acme))).json()).toEqual({ data: [] })
    expect((await postEvent(acme.org.slug, genuine)).status).toBe(403)
    expect(logs.text()).not.toContain(TOKEN)
    expect(logs.text()).not.toContain(genuine.passcode)
  })
})
