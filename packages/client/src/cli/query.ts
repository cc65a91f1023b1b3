import type { NodeAssetLibraryClient } from '../node.js'
import type { Asset, AssetListQuery, SearchHit } from '../types.js'
import { UsageError, wholeNumber } from './usage.js'

interface FilterValues {
  tag?: string | undefined
  type?: string | undefined
  client?: string | undefined
  product?: string | undefined
  color?: string | undefined
  provenance?: string | undefined
}

export type Filters = Pick<AssetListQuery, 'tag' | 'asset_type' | 'client' | 'product' | 'color' | 'provenance'>

/**
 * The list filters, in the API's names, with only those given; read before any request, so an empty one
 * is bad usage at once. Values go as typed: a colour or an origin the API does not know is refused by the
 * server, whose answer names the values it takes.
 */
export function filtersOf(values: FilterValues): Filters {
  const options: Array<[keyof FilterValues, keyof Filters]> = [
    ['tag', 'tag'],
    ['type', 'asset_type'],
    ['client', 'client'],
    ['product', 'product'],
    ['color', 'color'],
    ['provenance', 'provenance'],
  ]
  const filters: Record<string, string> = {}
  for (const [option, field] of options) {
    const value = values[option]
    if (value === undefined) continue
    if (value === '') throw new UsageError(`--${option} needs a value`)
    filters[field] = value
  }
  return filters
}

export async function search(client: NodeAssetLibraryClient, query: string, filters: Filters, values: { limit?: string | undefined; json?: boolean | undefined }): Promise<void> {
  const limit = wholeNumber('limit', values.limit, 1, 100)
  const answer = await client.search({ q: query, ...filters, ...(limit !== undefined && { limit }) })
  print(answer.data, values.json ?? false)
  if (!values.json) process.stderr.write(`${answer.data.length} hits (${answer.mode} search)\n`)
}

export async function list(client: NodeAssetLibraryClient, filters: Filters, values: ListingValues & { q?: string | undefined; sort?: string | undefined }): Promise<void> {
  // A key the API does not know is refused by the server, whose answer names the keys it takes.
  const sort = values.sort as AssetListQuery['sort']
  const query: AssetListQuery = { ...filters, ...(values.q !== undefined && { q: values.q }), ...(sort !== undefined && { sort }) }
  await printListing(values, COLUMNS, 'assets', {
    every: () => client.assets.iterate(query),
    page: (limit, offset) => client.assets.list({ ...query, limit, offset }),
  })
}

export interface ListingValues {
  limit?: string | undefined
  offset?: string | undefined
  all?: boolean | undefined
  json?: boolean | undefined
}

/**
 * A page of a list (`--limit`, `--offset`), or every row with --all, as a table or NDJSON; under the table,
 * on stderr, how many `noun` there are and how to page on.
 */
export async function printListing<Row>(
  values: ListingValues,
  columns: Columns<Row>,
  noun: string,
  source: { every: () => AsyncIterable<Row>; page: (limit: number, offset: number) => Promise<{ data: Row[]; total: number }> },
): Promise<void> {
  const json = values.json ?? false
  if (values.all) {
    const rows: Row[] = []
    for await (const row of source.every()) {
      if (json) process.stdout.write(`${JSON.stringify(row)}\n`)
      else rows.push(row)
    }
    if (!json) printRows(rows, columns, false)
    return
  }
  const limit = wholeNumber('limit', values.limit, 1, 100) ?? 50
  const offset = wholeNumber('offset', values.offset, 0) ?? 0
  const page = await source.page(limit, offset)
  printRows(page.data, columns, json)
  if (!json) {
    const more = page.total > offset + page.data.length ? `; --offset ${offset + page.data.length} for the next page, or --all` : ''
    process.stderr.write(`${page.data.length} of ${page.total} ${noun}${more}\n`)
  }
}

/** A table's columns: each heading and how a row's cell is read. */
export type Columns<Row> = Array<[string, (row: Row) => string]>

const COLUMNS: Columns<Asset | SearchHit> = [
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
  printRows(assets, COLUMNS, json)
}

/** One NDJSON line per row, or a table of `columns` that fit their widest cell (cut at 40 characters). */
export function printRows<Row>(rows: Row[], columns: Columns<Row>, json: boolean): void {
  if (json) {
    for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`)
    return
  }
  const cells = rows.map((row) => columns.map(([, read]) => cut(read(row).replace(/\s+/g, ' '))))
  const widths = columns.map(([heading], column) => Math.max(heading.length, ...cells.map((row) => row[column]!.length)))
  const line = (row: string[]) => `${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()}\n`
  process.stdout.write(line(columns.map(([heading]) => heading)))
  for (const row of cells) process.stdout.write(line(row))
}

function cut(text: string): string {
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text
}

/** `colors`: the colour names `--color` takes, each with its swatch's hex, as a table or NDJSON. */
export async function listColors(client: NodeAssetLibraryClient, json: boolean): Promise<void> {
  const { data } = await client.colors.list()
  printRows(data, [['NAME', (color) => color.name], ['HEX', (color) => color.hex]], json)
}
