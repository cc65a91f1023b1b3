/**
 * The library the list benches read: plausible types, clients, products and titles; "retina" in 10% of
 * the titles and "zeppelin" in ~2.5%; 0 to 3 of 15 tags each, plus "approved" on half of them; 15% in one
 * of three manual collections. The same on every run.
 */
import sharp from 'sharp'
import { byTagOrder } from '../../src/modules/catalog/service.js'
import { DEFAULT_ASSET_TYPES } from '../../src/modules/catalog/store.js'
import { sha256Hex } from '../../src/platform/crypto.js'
import type { Db } from '../../src/platform/db/index.js'
import { uuidv7, uuidv7At } from '../../src/platform/ids.js'
import { mulberry32, syntheticFile } from './synthetic.js'

const CLIENTS = ['Acme', 'Initech', 'Globex', 'Umbrella', 'Hooli', 'Stark Industries', 'Wayne Enterprises', 'Wonka']
const PRODUCTS = ['Stapler', 'Widget', 'Rocket Skates', 'Anvil', 'Soda', 'Chocolate Bar', 'Phone', 'Sneakers', 'Coffee', 'Backpack']
const SEASONS = ['Summer', 'Winter', 'Spring', 'Autumn', 'Holiday', 'Back to school', 'Black Friday', 'Launch']
const SUBJECTS = ['campaign hero', 'sale banner', 'product shot', 'social teaser', 'newsletter header', 'landing page', 'story frame', 'print ad']
const TAGS = ['red', 'blue', 'green', 'black', 'white', 'summer', 'winter', 'hero', 'social', 'print', 'draft', 'v2', 'square', 'portrait', 'landscape']
export const HALF_TAG = 'approved'
export const COLLECTIONS = ['Q3 launch', 'Brand refresh', 'Best of 2025']

export interface PlannedAsset {
  title: string
  asset_type?: string
  client?: string
  product?: string
  collection_name?: string
  tag_names: string[]
  created_by_ai: boolean
}

/** The library's assets, the same on every run. */
export function plannedLibrary(count: number): PlannedAsset[] {
  const random = mulberry32(42)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  return Array.from({ length: count }, (_, i) => {
    const word = random() < 0.1 ? ' retina' : random() < 0.028 ? ' zeppelin' : ''
    const tags = new Set(Array.from({ length: Math.floor(random() * 4) }, () => pick(TAGS)))
    if (random() < 0.5) tags.add(HALF_TAG)
    return {
      title: `${pick(SEASONS)} ${pick(SUBJECTS)}${word} ${i}`,
      ...(random() < 0.9 && { asset_type: pick(DEFAULT_ASSET_TYPES) }),
      ...(random() < 0.95 && { client: pick(CLIENTS) }),
      ...(random() < 0.8 && { product: pick(PRODUCTS) }),
      ...(random() < 0.15 && { collection_name: pick(COLLECTIONS) }),
      tag_names: [...tags],
      created_by_ai: random() < 0.6,
    }
  })
}

/**
 * The same library written straight into the tables, 1,000 rows a statement, as the push writes them
 * (the counters follow by trigger): for 100,000 assets, which would take many minutes through the API.
 */
export async function seedDirectly(db: Db, organizationId: string, library: PlannedAsset[]): Promise<void> {
  const tagNames = [...TAGS, HALF_TAG]
  await db.insertInto('tags').values(tagNames.map((name) => ({ id: uuidv7(), organization_id: organizationId, name }))).execute()
  const collections = await db
    .selectFrom('collections')
    .select(['id', 'name'])
    .where('organization_id', '=', organizationId)
    .execute()
  const collectionIds = new Map(collections.map((row) => [row.name, row.id]))
  const now = Date.now()
  for (let first = 0; first < library.length; first += 1000) {
    const batch = library.slice(first, first + 1000).map((asset, offset) => {
      const i = first + offset
      const createdAt = new Date(now - (library.length - i) * 1000)
      const sha256 = sha256Hex(`bench asset ${i}`)
      const tags = [...asset.tag_names].sort(byTagOrder)
      return {
        row: {
          id: uuidv7At(createdAt.getTime()),
          organization_id: organizationId,
          title: asset.title,
          asset_type: asset.asset_type ?? null,
          client: asset.client ?? null,
          product: asset.product ?? null,
          source_url: null,
          created_by_ai: asset.created_by_ai,
          mime_type: 'image/png',
          ...syntheticFile(mulberry32(i), sha256),
          tags,
          tag_keys: tags.map((tag) => tag.toLowerCase()),
          tag_text: tags.join(' '),
          created_at: createdAt,
          updated_at: createdAt,
        },
        collectionId: asset.collection_name && collectionIds.get(asset.collection_name),
      }
    })
    await db.insertInto('assets').values(batch.map(({ row }) => row)).execute()
    const members = batch.filter(({ collectionId }) => collectionId).map(({ row, collectionId }) => ({ collection_id: collectionId!, asset_id: row.id }))
    if (members.length > 0) await db.insertInto('collection_assets').values(members).execute()
  }
}

/** An 8 x 8 PNG whose pixels spell `i`, so every push has new bytes. */
export function tinyPng(i: number): Promise<Buffer> {
  const pixels = Buffer.alloc(8 * 8 * 3)
  pixels.writeUInt32BE(i, 0)
  return sharp(pixels, { raw: { width: 8, height: 8, channels: 3 } }).png().toBuffer()
}

/**
 * Pushes `library` through the API as JSON, asset i with tinyPng(`first` + i), `inFlight` at a time: the
 * way a library fills up, into an organization that has no collection yet: its collections are created first.
 */
export async function pushLibrary(baseUrl: string, apiKey: string, library: PlannedAsset[], inFlight: number, first = 0): Promise<void> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }
  for (const name of COLLECTIONS) {
    const response = await fetch(`${baseUrl}/api/v1/collections`, { method: 'POST', headers, body: JSON.stringify({ name }) })
    if (response.status !== 201) throw new Error(`collection ${name}: ${response.status} ${await response.text()}`)
  }
  let next = 0
  const pusher = async () => {
    while (next < library.length) {
      const i = next++
      const response = await fetch(`${baseUrl}/api/v1/assets`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ ...library[i], image_base64: (await tinyPng(first + i)).toString('base64') }),
      })
      if (response.status !== 201) throw new Error(`push ${i}: ${response.status} ${await response.text()}`)
    }
  }
  await Promise.all(Array.from({ length: inFlight }, pusher))
}
