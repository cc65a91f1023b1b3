import type { NodeAssetLibraryClient } from '../node.js'
import type { Asset, AssetListQuery, SearchHit } from '../types.js'
import { wholeNumber } from './usage.js'

interface FilterValues {
  tag?: string | undefined
  type?: string | undefined
  client?: string | undefined
  product?: string | undefined
}

/** The list filters, in the API's names, with only those given. */
function filtersOf(values: FilterValues): Pick<AssetListQuery, 'tag' | 'asset_type' | 'client' | 'product'> {
  const filters = { tag: values.tag, asset_type: values.type, client: values.client, product: values.product }
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined))
}

export async function search(client: NodeAssetLibraryClient, query: string, values: FilterValues & { limit?: string | undefined; json?: boolean | undefined }): Promise<void> {
  const limit = wholeNumber('limit', values.limit, 1, 100)
  const answer = await client.search({ q: query, ...filtersOf(values), ...(limit !== undefined && { limit }) })
  print(answer.data, values.json ?? false)
  if (!values.json) process.stderr.write(`${answer.data.length} hits (${answer.mode} search)\n`)
}

export async function list(
  client: NodeAssetLibraryClient,
  values: FilterValues & { q?: string | undefined; limit?: string | undefined; offset?: string | undefined; all?: boolean | undefined; json?: boolean | undefined },
): Promise<void> {
  const query: AssetListQuery = { ...filtersOf(values), ...(values.q !== undefined && { q: values.q }) }
  if (values.all) {
    const rows: Asset[] = []
    for await (const asset of client.assets.iterate(query)) {
      if (values.json) process.stdout.write(`${JSON.stringify(asset)}\n`)
      else rows.push(asset)
    }
    if (!values.json) print(rows, false)
    return
  }
  const limit = wholeNumber('limit', values.limit, 1, 100) ?? 50
  const offset = wholeNumber('offset', values.offset, 0) ?? 0
  const page = await client.assets.list({ ...query, limit, offset })
  print(page.data, values.json ?? false)
  if (!values.json) {
    const more = page.total > offset + page.data.length ? `; --offset ${offset + page.data.length} for the next page, or --all` : ''
    process.stderr.write(`${page.data.length} of ${page.total} assets${more}\n`)
  }
}

const COLUMNS: Array<[string, (asset: Asset | SearchHit) => string]> = [
  ['ID', (asset) => asset.id],
  ['TITLE', (asset) => asset.title],
  ['TYPE', (asset) => asset.asset_type ?? ''],
  ['CLIENT', (asset) => asset.client ?? ''],
  ['PRODUCT', (asset) => asset.product ?? ''],
  ['TAGS', (asset) => asset.tags.join(', ')],
  ['SIZE', (asset) => `${asset.width}x${asset.height}`],
]
const MAX_CELL = 40

/** One NDJSON line per asset, or a table whose columns fit their widest cell (cut at 40 characters). */
function print(assets: Array<Asset | SearchHit>, json: boolean): void {
  if (json) {
    for (const asset of assets) process.stdout.write(`${JSON.stringify(asset)}\n`)
    return
  }
  const cells = assets.map((asset) => COLUMNS.map(([, read]) => cut(read(asset).replace(/\s+/g, ' '))))
  const widths = COLUMNS.map(([heading], column) => Math.max(heading.length, ...cells.map((row) => row[column]!.length)))
  const line = (row: string[]) => `${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()}\n`
  process.stdout.write(line(COLUMNS.map(([heading]) => heading)))
  for (const row of cells) process.stdout.write(line(row))
}

function cut(text: string): string {
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text
}
