import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MAX_THUMBNAILS } from '../../src/modules/integrations/outline.js'
import { startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { startFakeFigma, type FakeFigma } from '../support/fake-figma.js'
import { expectInvalid, expectProblem, startTwoOrganizations } from '../support/fixtures.js'
import { captureLogs, type CapturedLogs } from '../support/logs.js'
import { loginOwner, signedInMember, type Client } from '../support/sessions.js'

/** The organization's stored Figma token (app API) and the file outline of the Import screen, against the fake Figma. */
let figma: FakeFigma
let logs: CapturedLogs
let t: TestApp
let acme: Seeded
let globex: Seeded
let owner: Client
let member: Client

const TOKEN = 'figd_acme-designer-0123456789'
const OTHER_TOKEN = 'figd_acme-lead-9876543210'
const connectionUrl = (seeded: Seeded) => `/app/api/orgs/${seeded.org.slug}/integrations/figma`
const outlineUrl = (seeded: Seeded, fileUrl: string) => `${connectionUrl(seeded)}/outline?file_url=${encodeURIComponent(fileUrl)}`

beforeAll(async () => {
  figma = await startFakeFigma()
  figma.addToken(TOKEN, { id: '1001', handle: 'Dana Designer', email: 'dana@acme.example' })
  figma.addToken(OTHER_TOKEN, { id: '1002', handle: 'Lee Lead', email: 'lee@acme.example' })
  logs = captureLogs()
  // No retry budget: a Figma that answers 5xx is unavailable at once.
  ;({ t, acme, globex } = await startTwoOrganizations({ env: { ...figma.env, FIGMA_MAX_RETRY_WAIT_MS: '0' }, logger: logs.logger }))
  owner = await loginOwner(t.app, acme)
  member = await signedInMember(t.app, acme.org.id, 'member')
})
afterAll(async () => {
  await t.close()
  await figma.close()
})
beforeEach(() => figma.reset())

describe('the stored Figma token', () => {
  it('is checked with Figma, stored sealed, shown as whose it is, and read back by the import engine', async () => {
    expect((await owner.get(connectionUrl(acme))).json()).toEqual({ connected: false, figma_user: null, connected_by: null, updated_at: null })

    const stored = await owner.put(connectionUrl(acme), { token: TOKEN })
    expect(stored.statusCode, stored.body).toBe(200)
    expect(stored.json()).toEqual({
      connected: true,
      figma_user: { id: '1001', handle: 'Dana Designer', email: 'dana@acme.example' },
      connected_by: acme.owner.email,
      updated_at: expect.any(String),
    })
    expect(figma.requests).toEqual([{ method: 'GET', url: '/v1/me', token: TOKEN }])
    expect(stored.body).not.toContain(TOKEN)

    // Members see whose token it is (the Import screen asks for one when there is none), never the token.
    const seen = await member.get(connectionUrl(acme))
    expect(seen.statusCode).toBe(200)
    expect(seen.json()).toEqual(stored.json())

    const row = await t.database.handle.db.selectFrom('figma_connections').selectAll().where('organization_id', '=', acme.org.id).executeTakeFirstOrThrow()
    expect(row.token_sealed).not.toContain(TOKEN)
    expect(row.token_sealed.startsWith('v1.')).toBe(true)
    expect(await t.app.services.figmaConnections.token(acme.org.id)).toBe(TOKEN)
    // Another organization's is its own.
    expect(await t.app.services.figmaConnections.token(globex.org.id)).toBeNull()
    expect((await (await loginOwner(t.app, globex)).get(connectionUrl(globex))).json()).toMatchObject({ connected: false })
  })

  it('is replaced by another, and a token Figma refuses changes nothing', async () => {
    const replaced = await owner.put(connectionUrl(acme), { token: OTHER_TOKEN })
    expect(replaced.statusCode, replaced.body).toBe(200)
    expect(replaced.json().figma_user).toEqual({ id: '1002', handle: 'Lee Lead', email: 'lee@acme.example' })
    expect(await t.app.services.figmaConnections.token(acme.org.id)).toBe(OTHER_TOKEN)

    const refused = expectProblem(await owner.put(connectionUrl(acme), { token: 'figd_never-issued-by-figma' }), 422, 'figma_token_invalid')
    expect(refused.detail).not.toContain('figd_never')
    figma.revokeToken(TOKEN)
    expectProblem(await owner.put(connectionUrl(acme), { token: TOKEN }), 422, 'figma_token_invalid')
    figma.addToken(TOKEN, { id: '1001', handle: 'Dana Designer', email: 'dana@acme.example' })
    expect((await owner.get(connectionUrl(acme))).json().figma_user.id).toBe('1002')
    expect(await t.app.services.figmaConnections.token(acme.org.id)).toBe(OTHER_TOKEN)
  })

  it('is 502 figma_unavailable when Figma answers 5xx, and nothing is stored', async () => {
    figma.failNext(5, 503)
    expectProblem(await owner.put(connectionUrl(acme), { token: TOKEN }), 502, 'figma_unavailable')
    expect(await t.app.services.figmaConnections.token(acme.org.id)).toBe(OTHER_TOKEN)
  })

  it('is changed only by owners and admins, with the CSRF token, and validated', async () => {
    expectProblem(await member.put(connectionUrl(acme), { token: TOKEN }), 403, 'role_required')
    expectProblem(await member.delete(connectionUrl(acme)), 403, 'role_required')
    expectProblem(await owner.put(connectionUrl(acme), { token: TOKEN }, { csrf: null }), 403, 'csrf_token_invalid')
    expectProblem(await owner.put(connectionUrl(globex), { token: TOKEN }), 404, 'not_found')
    expectInvalid(await owner.put(connectionUrl(acme), { token: 'short' }), '/token')
    expectInvalid(await owner.put(connectionUrl(acme), {}), '/token')
    expect(figma.calls.me).toBe(0)

    const admin = await signedInMember(t.app, acme.org.id, 'admin')
    const stored = await admin.put(connectionUrl(acme), { token: TOKEN })
    expect(stored.statusCode, stored.body).toBe(200)
    expect(stored.json().connected_by).toBe(admin.email)
  })

  it('is removed (and removing none is no error)', async () => {
    expect((await owner.delete(connectionUrl(acme))).statusCode).toBe(204)
    expect((await owner.get(connectionUrl(acme))).json()).toEqual({ connected: false, figma_user: null, connected_by: null, updated_at: null })
    expect(await t.app.services.figmaConnections.token(acme.org.id)).toBeNull()
    expect((await owner.delete(connectionUrl(acme))).statusCode).toBe(204)
    expect((await owner.put(connectionUrl(acme), { token: TOKEN })).statusCode).toBe(200)
  })

  it('never appears in the logs', () => {
    expect(logs.text()).toContain('/integrations/figma')
    for (const token of [TOKEN, OTHER_TOKEN, 'figd_never-issued-by-figma']) expect(logs.text()).not.toContain(token)
  })
})

describe('the outline of a Figma file', () => {
  const FILE_KEY = 'OutlineFile0123456789'
  const fileUrl = `https://www.figma.com/design/${FILE_KEY}/Brand-kit`
  let ids: { cover: string; icons: string; hero: string; banner: string; logo: string; button: { id: string; variantIds: string[] }; campaign: string }

  beforeAll(() => {
    const file = figma.file(FILE_KEY, 'Brand kit')
    const cover = file.addPage('Cover')
    const icons = file.addPage('Icons')
    const campaign = file.addFrame(cover, 'Campaign')
    ids = {
      cover,
      icons,
      campaign,
      hero: file.addFrame(cover, 'Hero'),
      banner: file.addFrame(cover, 'Banner', { parentId: campaign }),
      logo: file.addComponent(icons, 'Logo'),
      button: file.addComponentSet(icons, 'Button', ['Size=Large', 'Size=Small']),
    }
  })

  it('lists pages, their top-level frames and the file\u2019s components, with Figma\u2019s thumbnails', async () => {
    const res = await member.get(outlineUrl(acme, fileUrl))
    expect(res.statusCode, res.body).toBe(200)
    const outline = res.json()
    expect(outline).toMatchObject({ file_key: FILE_KEY, file_name: 'Brand kit', version: figma.file(FILE_KEY).version, node_id: null })
    const thumbnail = expect.stringMatching(new RegExp(`^${figma.url}/`))
    expect(outline.pages).toEqual([
      {
        id: ids.cover,
        name: 'Cover',
        frames: [
          { id: ids.campaign, name: 'Campaign', type: 'FRAME', thumbnail_url: thumbnail },
          { id: ids.hero, name: 'Hero', type: 'FRAME', thumbnail_url: thumbnail },
        ],
      },
      {
        id: ids.icons,
        name: 'Icons',
        frames: [
          { id: ids.logo, name: 'Logo', type: 'COMPONENT', thumbnail_url: thumbnail },
          { id: ids.button.id, name: 'Button', type: 'COMPONENT_SET', thumbnail_url: thumbnail },
        ],
      },
    ])
    expect(outline.components).toEqual(
      expect.arrayContaining([
        { id: ids.logo, name: 'Logo', page: 'Icons', component_set: null, thumbnail_url: thumbnail },
        { id: ids.button.variantIds[0], name: 'Size=Large', page: 'Icons', component_set: 'Button', thumbnail_url: thumbnail },
        { id: ids.button.variantIds[1], name: 'Size=Small', page: 'Icons', component_set: 'Button', thumbnail_url: thumbnail },
      ]),
    )
    expect(outline.components).toHaveLength(3)
    // Read shallowly, rendered small, in one call each.
    expect(figma.requests.find((request) => request.url.startsWith(`/v1/files/${FILE_KEY}`))?.url).toContain('depth=2')
    expect(figma.requests.filter((request) => request.url.startsWith('/v1/images/')).every((request) => request.url.includes('scale=0.25'))).toBe(true)
    // The web app can show them: the fake serves the renderings.
    const image = await fetch(outline.pages[0].frames[1].thumbnail_url)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
  })

  it('covers the linked node only when the link has a node-id', async () => {
    const ofPage = await member.get(outlineUrl(acme, `${fileUrl}?node-id=${ids.icons.replace(':', '-')}`))
    expect(ofPage.statusCode, ofPage.body).toBe(200)
    expect(ofPage.json().node_id).toBe(ids.icons)
    expect(ofPage.json().pages.map((page: { name: string; frames: Array<{ name: string }> }) => [page.name, page.frames.map((frame) => frame.name)])).toEqual([['Icons', ['Logo', 'Button']]])

    const ofFrame = await member.get(outlineUrl(acme, `${fileUrl}?node-id=${ids.hero.replace(':', '-')}`))
    expect(ofFrame.statusCode, ofFrame.body).toBe(200)
    expect(ofFrame.json().pages).toEqual([{ id: ids.hero, name: 'Hero', frames: [{ id: ids.hero, name: 'Hero', type: 'FRAME', thumbnail_url: expect.any(String) }] }])

    expectProblem(await member.get(outlineUrl(acme, `${fileUrl}?node-id=999-999`)), 422, 'figma_file_not_found')
  })

  it('reads with X-Figma-Token when given, and needs a token otherwise', async () => {
    const globexOwner = await loginOwner(t.app, globex)
    expectProblem(await globexOwner.get(outlineUrl(globex, fileUrl)), 422, 'figma_not_connected')
    const withHeader = await t.app.inject({ url: outlineUrl(globex, fileUrl), headers: { cookie: globexOwner.cookie, 'x-figma-token': OTHER_TOKEN } })
    expect(withHeader.statusCode, withHeader.body).toBe(200)
    expect(withHeader.json().file_name).toBe('Brand kit')
    expect(figma.requests.map((request) => request.token)).toEqual(figma.requests.map(() => OTHER_TOKEN))
    expect(logs.text()).not.toContain(OTHER_TOKEN)
  })

  it('answers Figma\u2019s refusals and a link that is not Figma\u2019s', async () => {
    expectProblem(await member.get(outlineUrl(acme, 'https://example.com/design/OutlineFile0123456789/x')), 400, 'invalid_figma_url')
    expectProblem(await member.get(outlineUrl(acme, 'https://www.figma.com/files/team/123')), 400, 'invalid_figma_url')
    expectProblem(await member.get(outlineUrl(acme, 'https://www.figma.com/design/NoSuchFile0123456789/x')), 422, 'figma_file_not_found')
    const withHeader = (token: string) => t.app.inject({ url: outlineUrl(acme, fileUrl), headers: { cookie: member.cookie, 'x-figma-token': token } })
    expectProblem(await withHeader('figd_revoked-or-never-issued'), 422, 'figma_token_invalid')
    figma.failNext(5, 500)
    expectProblem(await member.get(outlineUrl(acme, fileUrl)), 502, 'figma_unavailable')
    expectProblem(await t.app.inject({ url: outlineUrl(acme, fileUrl) }), 401, 'not_signed_in')
  })

  it(`renders thumbnails of the first ${MAX_THUMBNAILS} nodes only`, async () => {
    const big = figma.file('ManyFrames0123456789', 'Many')
    const page = big.addPage('All')
    big.addFrames(page, MAX_THUMBNAILS + 10, 'Frame')
    const res = await member.get(outlineUrl(acme, 'https://www.figma.com/design/ManyFrames0123456789/Many'))
    expect(res.statusCode, res.body).toBe(200)
    const frames: Array<{ thumbnail_url: string | null }> = res.json().pages[0].frames
    expect(frames).toHaveLength(MAX_THUMBNAILS + 10)
    expect(frames.slice(0, MAX_THUMBNAILS).every((frame) => frame.thumbnail_url !== null)).toBe(true)
    expect(frames.slice(MAX_THUMBNAILS).every((frame) => frame.thumbnail_url === null)).toBe(true)
  })
})

describe('the web app\u2019s page', () => {
  it('lets <img> show Figma\u2019s renderings, and the fake\u2019s when FIGMA_API_URL points at it', async () => {
    const webDir = mkdtempSync(join(tmpdir(), 'web-build-'))
    mkdirSync(join(webDir, 'static'))
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Asset Library</title>')
    const cspOf = async (env: Record<string, string>) => {
      const web = await startTestApp({ database: t.database, env: { WEB_DIR: webDir, ...env } })
      try {
        const res = await web.app.inject({ url: '/import', headers: { accept: 'text/html' } })
        return /img-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1]
      } finally {
        await web.close()
      }
    }
    expect(await cspOf({})).toBe("'self' http://assets.test https://*.figma.com https://figma-alpha-api.s3.us-west-2.amazonaws.com data: blob:")
    expect(await cspOf(figma.env)).toBe(`'self' http://assets.test https://*.figma.com https://figma-alpha-api.s3.us-west-2.amazonaws.com ${figma.url} data: blob:`)
  })
})
