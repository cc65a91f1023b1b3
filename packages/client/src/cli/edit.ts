import type { NodeAssetLibraryClient } from '../node.js'
import type { AssetListQuery, BulkEdit, BulkEditResult } from '../types.js'
import { filtersOf } from './query.js'
import { UsageError } from './usage.js'

/** How many ids one bulk request may name (the API's cap). */
export const BULK_EDIT_CHUNK = 500

/** What --where selects by: the list's filters, by their option names, and `q`. */
const WHERE_FIELDS = ['tag', 'type', 'client', 'product', 'color', 'provenance', 'q'] as const
/** What --set sets: `origin` is `ai` or `person` (created_by_ai). */
const SET_FIELDS = ['type', 'client', 'product', 'origin'] as const

type Outcome = BulkEditResult['results'][number]['result']

export interface EditValues {
  where?: string[] | undefined
  set?: string[] | undefined
  'tag-add'?: string[] | undefined
  'tag-remove'?: string[] | undefined
  'dry-run'?: boolean | undefined
  json?: boolean | undefined
}

/** The edit's selection and changes, read before any request: bad usage is said at once. */
export interface EditPlan {
  where: AssetListQuery
  change: Omit<BulkEdit, 'ids'>
}

export function editPlan(values: EditValues): EditPlan {
  const where = pairs('where', values.where ?? [], WHERE_FIELDS)
  if (Object.keys(where).length === 0) throw new UsageError('edit needs --where FIELD=VALUE (tag, type, client, product, color, provenance or q) to select the assets')
  const { q, ...filters } = where
  const set = pairs('set', values.set ?? [], SET_FIELDS)
  const change: Omit<BulkEdit, 'ids'> = {
    ...(Object.keys(set).length > 0 && { set: setFields(set) }),
    ...(values['tag-add'] && { add_tags: values['tag-add'] }),
    ...(values['tag-remove'] && { remove_tags: values['tag-remove'] }),
  }
  if (Object.keys(change).length === 0) throw new UsageError('edit needs a change: --tag-add T, --tag-remove T or --set FIELD=VALUE')
  return { where: { ...filtersOf(filters), ...(q !== undefined && { q }) }, change }
}

/** FIELD=VALUE options, each field at most once and one of `fields`. */
function pairs<F extends string>(option: string, given: string[], fields: readonly F[]): Partial<Record<F, string>> {
  const read: Partial<Record<F, string>> = {}
  for (const pair of given) {
    const at = pair.indexOf('=')
    const field = (at < 0 ? pair : pair.slice(0, at)) as F
    if (at < 0 || !fields.includes(field)) throw new UsageError(`--${option} takes FIELD=VALUE with FIELD one of ${fields.join(', ')}, not ${JSON.stringify(pair)}`)
    if (read[field] !== undefined) throw new UsageError(`--${option} ${field}= is given twice`)
    read[field] = pair.slice(at + 1)
  }
  return read
}

/** --set's values in the API's names: an empty name clears it; origin is ai or person. */
function setFields(set: Partial<Record<(typeof SET_FIELDS)[number], string>>): NonNullable<BulkEdit['set']> {
  const name = (value: string) => (value.trim() === '' ? null : value)
  const { type, client, product, origin } = set
  if (origin !== undefined && origin !== 'ai' && origin !== 'person') throw new UsageError(`--set origin= takes ai or person, not ${JSON.stringify(origin)}`)
  return {
    ...(type !== undefined && { asset_type: name(type) }),
    ...(client !== undefined && { client: name(client) }),
    ...(product !== undefined && { product: name(product) }),
    ...(origin !== undefined && { created_by_ai: origin === 'ai' }),
  }
}

/**
 * `edit`: every asset the --where filters select (all pages read first, so an edit that moves assets out
 * of the selection skips none), edited in requests of 500 ids; a summary of what happened to them, and
 * with --json one NDJSON line per asset then the summary. --dry-run says how many it would edit. True
 * when no asset was skipped (not found, forbidden).
 */
export async function editAssets(client: NodeAssetLibraryClient, plan: EditPlan, values: EditValues): Promise<boolean> {
  const ids: string[] = []
  for await (const asset of client.assets.iterate(plan.where)) ids.push(asset.id)
  if (values['dry-run']) {
    process.stdout.write(values.json ? `${JSON.stringify({ event: 'summary', would_edit: ids.length })}\n` : `${ids.length} assets would be edited\n`)
    return true
  }
  const counts: Record<Outcome, number> = { updated: 0, unchanged: 0, not_found: 0, forbidden: 0 }
  for (let start = 0; start < ids.length; start += BULK_EDIT_CHUNK) {
    const { results } = await client.assets.bulkEdit({ ids: ids.slice(start, start + BULK_EDIT_CHUNK), ...plan.change })
    for (const result of results) {
      counts[result.result] += 1
      if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`)
      else if (result.reason !== undefined) process.stderr.write(`${result.result.padEnd(10)} ${result.id}  ${result.reason}\n`)
    }
  }
  if (values.json) process.stdout.write(`${JSON.stringify({ event: 'summary', ...counts })}\n`)
  else process.stdout.write(`${counts.updated} updated, ${counts.unchanged} unchanged, ${counts.not_found} not found, ${counts.forbidden} forbidden\n`)
  return counts.not_found + counts.forbidden === 0
}
