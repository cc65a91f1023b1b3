import { sql, type Kysely } from 'kysely'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { savePalette } from '../../src/modules/colors/store.js'
import * as colourAndOriginCounts from '../../src/platform/db/migrations/0022_colour_and_origin_counts.js'
import { drainDerivations, type Seeded, type TestApp } from '../support/app.js'
import { expectInvalid, organizationApi, outboxEvents, pushImage, startTwoOrganizations, type OrganizationApi } from '../support/fixtures.js'
import { solid, solidPng, undecodablePng } from '../support/images.js'

let t: TestApp
let acme: Seeded
let globex: Seeded
let api: OrganizationApi

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations({ env: { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000' } }))
  api = organizationApi(t.app, acme)
})
afterAll(() => t.close())

/** Each push in this file gets an image of its own size, so no two are the same bytes. */
let side = 20
const nextSide = () => side++

/** White, with `accent` covering `share` of it (a band on the left). */
async function whiteWithAccent(accent: string, share: number): Promise<Buffer> {
  const width = nextSide() * 5
  const band = await solidPng(Math.round(width * share), width, accent)
  return solid(width, width, '#ffffff').composite([{ input: band, left: 0, top: 0 }]).png().toBuffer()
}

/** A red square in the middle of a transparent canvas: the canvas must not count. */
async function redOnTransparent(): Promise<Buffer> {
  const width = nextSide() * 4
  const square = await solidPng(width / 2, width / 2, '#e53935')
  return solid(width, width, { r: 0, g: 0, b: 0, alpha: 0 }).composite([{ input: square, left: width / 4, top: width / 4 }]).png().toBuffer()
}

async function pushed(image: Buffer, fields: object = {}, seeded = acme): Promise<string> {
  return (await pushImage(t.app, seeded.writeKey, fields, image)).id
}

async function colorsOf(id: string, seeded = acme) {
  const res = await organizationApi(t.app, seeded).get(`/api/v1/assets/${id}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<{ colors: Array<{ hex: string; share: number; name: string }> | null }>().colors
}

const ids = (res: { json: () => { data: Array<{ id: string }> } }) => res.json().data.map((asset) => asset.id)

describe('GET /api/v1/colors', () => {
  it('lists the twelve names with their swatches, for a read key', async () => {
    const res = await api.get('/api/v1/colors')
    expect(res.statusCode, res.body).toBe(200)
    const { data } = res.json<{ data: Array<{ name: string; hex: string }> }>()
    expect(data.map((color) => color.name)).toEqual(['red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink', 'brown', 'black', 'gray', 'white'])
    for (const color of data) expect(color.hex).toMatch(/^#[0-9a-f]{6}$/)
  })

  it('needs a key', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/colors' })).statusCode).toBe(401)
  })
})

describe('the palette of an asset', () => {
  it('is null until made after the push, then its colours, without an event or a new updated_at', async () => {
    const id = await pushed(await solidPng(nextSide(), 12, '#ff0000'))
    const before = (await api.get(`/api/v1/assets/${id}`)).json()
    expect(before.colors).toBeNull()
    const updates = (await outboxEvents(t.database.handle.db, acme.org.id, 'asset.updated')).length

    await drainDerivations(t.app, 'palette')
    const after = (await api.get(`/api/v1/assets/${id}`)).json()
    expect(after.colors).toEqual([{ hex: '#ff0000', share: 1, name: 'red' }])
    expect(after.updated_at).toBe(before.updated_at)
    expect(await outboxEvents(t.database.handle.db, acme.org.id, 'asset.updated')).toHaveLength(updates)
  })

  it.each([
    ['a blue and white image', () => whiteWithAccent('#1565c0', 0.5), [{ hex: '#1565c0', share: 0.5, name: 'blue' }, { hex: '#ffffff', share: 0.5, name: 'white' }]],
    ['a red logo on a transparent canvas (transparent pixels do not count)', redOnTransparent, [{ hex: '#e53935', share: 1, name: 'red' }]],
    ['a 1×1 image', () => solidPng(1, 1, '#1e5aa8'), [{ hex: '#1e5aa8', share: 1, name: 'blue' }]],
    ['a fully transparent image (no colour)', () => solid(nextSide(), 9, { r: 255, g: 0, b: 0, alpha: 0 }).png().toBuffer(), []],
    ['a 16-bit PNG', () => solid(nextSide(), 9, '#00a000').toColourspace('rgb16').png().toBuffer(), [{ hex: '#00a000', share: 1, name: 'green' }]],
    ['a navy JPEG (navy is blue, not purple)', () => solid(nextSide(), 9, '#000080').jpeg({ quality: 100 }).toBuffer(), [{ name: 'blue' }]],
    ['an image that cannot be decoded (no colour, no longer pending)', () => undecodablePng(), []],
  ])('of %s', async (_name, image, expected) => {
    const id = await pushed(await image())
    await drainDerivations(t.app, 'palette')
    const colors = await colorsOf(id)
    expect(colors).toHaveLength(expected.length)
    expect(colors).toMatchObject(expected)
  })

  it('of a CMYK JPEG is read in sRGB', async () => {
    const cmyk = await solid(nextSide(), 9, '#ffd700').jpeg().toColourspace('cmyk').toBuffer()
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk')
    const id = await pushed(cmyk)
    await drainDerivations(t.app, 'palette')
    expect(await colorsOf(id)).toMatchObject([{ share: 1, name: 'yellow' }])
  })

  it('of an animated GIF is its first frame’s', async () => {
    const frame = (colour: string) => solidPng(nextSide(), 10, colour)
    const first = await frame('#ff0000')
    const second = await sharp(await frame('#0000ff')).resize((await sharp(first).metadata()).width, 10).png().toBuffer()
    const gif = await sharp([first, second], { join: { animated: true } }).gif().toBuffer()
    const id = await pushed(gif)
    await drainDerivations(t.app, 'palette')
    expect(await colorsOf(id)).toMatchObject([{ share: 1, name: 'red' }])
  })

  it('of an SVG is read from its rendering', async () => {
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${nextSide()}" height="40"><rect width="100%" height="100%" fill="#388e3c"/></svg>`)
    const id = await pushed(svg)
    await drainDerivations(t.app, 'palette')
    expect(await colorsOf(id)).toMatchObject([{ hex: '#388e3c', share: 1, name: 'green' }])
  })

  it('keeps at most six colours, most used first', async () => {
    const width = nextSide() * 8
    const stripes = ['#ff0000', '#ffa500', '#ffff00', '#008000', '#0000ff', '#800080', '#000000', '#ffffff']
    const bands = await Promise.all(stripes.map(async (colour, index) => ({ input: await solidPng(width / 8 + (index < 2 ? width / 8 : 0), 40, colour), left: 0, top: 0 })))
    let left = 0
    for (const band of bands) {
      band.left = left
      left += (await sharp(band.input).metadata()).width
    }
    const image = await solid(left, 40, '#ffffff').composite(bands).png().toBuffer()
    const id = await pushed(image)
    await drainDerivations(t.app, 'palette')
    const colors = (await colorsOf(id))!
    expect(colors).toHaveLength(6)
    expect(colors.slice(0, 2).map((color) => color.name)).toEqual(['red', 'orange'])
    expect(colors.map((color) => color.share)).toEqual([...colors.map((color) => color.share)].sort((a, b) => b - a))
  })

  it('is made again for a new version, from null', async () => {
    const id = await pushed(await solidPng(nextSide(), 12, '#ff0000'))
    await drainDerivations(t.app, 'palette')
    const res = await api.call('POST', `/api/v1/assets/${id}/versions`, { image_base64: (await solidPng(nextSide(), 12, '#0000ff')).toString('base64') })
    expect(res.statusCode, res.body).toBe(201)
    expect(await colorsOf(id)).toBeNull()
    await drainDerivations(t.app, 'palette')
    expect(await colorsOf(id)).toMatchObject([{ name: 'blue' }])
    expect(ids(await api.get('/api/v1/assets?color=red'))).not.toContain(id)
  })

  it('is not saved over a newer file', async () => {
    const id = await pushed(await solidPng(nextSide(), 12, '#ff0000'))
    const { sha256 } = (await api.get(`/api/v1/assets/${id}`)).json()
    await drainDerivations(t.app, 'palette')
    await api.call('POST', `/api/v1/assets/${id}/versions`, { image_base64: (await solidPng(nextSide(), 12, '#0000ff')).toString('base64') })
    // The first file's palette, saved late, as a job that read the first file would.
    await savePalette(t.database.handle.db, { id, sha256 }, { colors: [{ hex: '#ff0000', share: 1, name: 'red' }], names: ['red'] })
    expect(await colorsOf(id)).toBeNull()
  })
})

describe('the color filter', () => {
  let red: string
  let blue: string
  let accented: string

  beforeAll(async () => {
    red = await pushed(await solidPng(nextSide(), 12, '#d32f2f'), { title: 'Red poster', tag_names: ['poster'] })
    blue = await pushed(await solidPng(nextSide(), 12, '#1976d2'), { title: 'Blue poster', tag_names: ['poster'] })
    // A red accent on 3% of a white image: in the palette, but too little for `color=red`.
    accented = await pushed(await whiteWithAccent('#d32f2f', 0.03), { title: 'White poster', tag_names: ['poster'] })
    await pushed(await solidPng(nextSide(), 12, '#d32f2f'), { title: 'Red poster' }, globex)
  })

  it('finds nothing before the palettes are made, then the assets with a meaningful share of the colour (cached pages rebuilt)', async () => {
    expect(ids(await api.get('/api/v1/assets?color=red&tag=poster'))).toEqual([])
    await drainDerivations(t.app, 'palette')
    const reds = await api.get('/api/v1/assets?color=red&tag=poster')
    expect(ids(reds)).toEqual([red])
    expect(reds.json().total).toBe(1)
    expect(ids(await api.get('/api/v1/assets?color=blue&tag=poster'))).toEqual([blue])
    expect(ids(await api.get('/api/v1/assets?color=white&tag=poster'))).toEqual([accented])
    expect(await colorsOf(accented)).toMatchObject([{ name: 'white' }, { name: 'red', share: 0.03 }])
  })

  it('has the total of a lone colour from its kept count, through a palette made, a new version, a trash and a restore', async () => {
    /** The kept count of each colour name beside a count over the assets, and the lone filter's total. */
    async function expectKeptCounts(name: string, expected: number) {
      const { rows } = await sql<{ kept: number; counted: number }>`
        select
          (select coalesce(sum(asset_count), 0)::int from asset_name_counts where organization_id = ${globex.org.id} and field = 'color' and key = ${name}) as kept,
          (select count(*)::int from assets where organization_id = ${globex.org.id} and color_names @> array[${name}]) as counted
      `.execute(t.database.handle.db)
      expect(rows[0], name).toEqual({ kept: expected, counted: expected })
      expect((await organizationApi(t.app, globex).get(`/api/v1/assets?color=${name}&limit=1`)).json().total, name).toBe(expected)
    }
    await drainDerivations(t.app, 'palette')
    const green = await pushed(await solidPng(nextSide(), 12, '#2e7d32'), {}, globex)
    await expectKeptCounts('green', 0)
    await drainDerivations(t.app, 'palette')
    await expectKeptCounts('green', 1)

    const globexApi = organizationApi(t.app, globex)
    const version = await globexApi.call('POST', `/api/v1/assets/${green}/versions`, { image_base64: (await solidPng(nextSide(), 12, '#fdd835')).toString('base64') })
    expect(version.statusCode, version.body).toBe(201)
    await expectKeptCounts('green', 0)
    await drainDerivations(t.app, 'palette')
    await expectKeptCounts('yellow', 1)

    expect((await globexApi.call('DELETE', `/api/v1/assets/${green}`)).statusCode).toBe(204)
    await expectKeptCounts('yellow', 0)
    const restored = await globexApi.call('POST', `/api/v1/trash/${green}/restore`)
    expect(restored.statusCode, restored.body).toBe(200)
    await drainDerivations(t.app, 'palette')
    await expectKeptCounts('yellow', 1)
    await expectKeptCounts('green', 0)
  })

  it('refuses a name that is not a colour name', async () => {
    expectInvalid(await api.get('/api/v1/assets?color=crimson'), '/query/color')
    expectInvalid(await api.get('/api/v1/assets?color=Red'), '/query/color')
  })

  it('holds in smart collections', async () => {
    await drainDerivations(t.app, 'palette')
    const res = await api.call('POST', '/api/v1/collections', { name: 'Red ones', query: { color: 'red', tag: 'poster' } })
    expect(res.statusCode, res.body).toBe(201)
    const shown = (await api.get(`/api/v1/collections/${res.json().id}`)).json()
    expect(shown.assets.data.map((asset: { id: string }) => asset.id)).toEqual([red])
  })

  it('holds in search, within the organization', async () => {
    await drainDerivations(t.app, 'palette')
    const res = await api.call('POST', '/api/v1/search', { q: 'poster', color: 'red' }, acme.readKey)
    expect(res.statusCode, res.body).toBe(200)
    expect(ids(res)).toEqual([red])
  })
})

describe('migration 0022 (the kept colour and origin counts)', () => {
  it('goes down to the three catalogue fields and up again with the colours counted from the assets', async () => {
    await drainDerivations(t.app, 'palette')
    const db = t.database.handle.db
    const kept = async () =>
      (await sql<{ field: string; n: number }>`select field, sum(asset_count)::int as n from asset_name_counts where organization_id = ${acme.org.id} group by field order by field`.execute(db)).rows
    const before = await kept()
    expect(before.map((row) => row.field)).toContain('color')
    // A migration takes the database untyped, as the migrator hands it over.
    const untyped = db as unknown as Kysely<unknown>
    await colourAndOriginCounts.down(untyped)
    expect((await kept()).map((row) => row.field)).not.toContain('color')
    await colourAndOriginCounts.up(untyped)
    expect(await kept()).toEqual(before)
    // The trigger counts colours again: a new palette adds to them.
    await pushed(await solidPng(nextSide(), 12, '#7b1fa2'))
    await drainDerivations(t.app, 'palette')
    expect((await api.get('/api/v1/assets?color=purple&limit=1')).json().total).toBeGreaterThan(0)
  })
})
