import type { Page } from '../../platform/http/pagination.js'
import type { RenditionPreset } from '../renditions/spec.js'
import type { Keyset } from './cursor.js'
import type { AssetSort } from './sort.js'
import type { AssetFilter, CountedTotal } from './store.js'

/** What a page of the list answers, as the service computed it. */
export interface ListedPage<R> {
  data: R[]
  total: number
  /** False when `total` is the planner's estimate of a full-text list's many matches. */
  total_exact: boolean
  limit: number
  offset: number
  /** Where the next page starts (see cursor.ts); null on the last page. */
  next_cursor: string | null
}

export interface CachedPage<R> {
  /** `organizations.library_version` in the snapshot the page was read from (null: none, never reused). */
  version: string | null
  /** The expiry of the signed URLs in it: a page is only reused while a fresh one would sign the same links. */
  linksExpire: number
  /** The organization's presets its records link, as their cache answered them (the same array while they are unchanged). */
  presets: readonly RenditionPreset[]
  page: ListedPage<R>
}

/**
 * Recently listed pages, per organization and query, and the totals counted for them per filter, so the
 * next page of a query (any offset or limit) need not count its matches again. Either is only reused
 * once the organization's `library_version` is known to be unchanged, or the change log says that no
 * change since its version could alter it (then it is kept again under the current version): triggers
 * move the version and log the change in the transaction of any change a page could show, so a reused
 * page or total is exactly what the list statement would answer, on any number of processes, and a
 * write is visible to the next read as soon as it commits.
 *
 * Each is bounded by the records held (least recently used out first; a page counts one more record
 * than it has, a total one); a budget of 0 keeps nothing.
 */
export class ListPages<R> {
  private readonly pages: Recent<CachedPage<R>>
  private readonly totals: Recent<CountedTotal>

  constructor(maxRecords: number) {
    this.pages = new Recent(maxRecords, (entry) => entry.page.data.length + 1)
    this.totals = new Recent(maxRecords, () => 1)
  }

  /** The page kept for this query, marked as just used; reuse it only if `version` and `linksExpire` still hold. */
  get(organizationId: string, query: string): CachedPage<R> | undefined {
    return this.pages.get(scopedKey(organizationId, query))
  }

  keep(organizationId: string, query: string, entry: CachedPage<R>): void {
    this.pages.set(scopedKey(organizationId, query), entry)
  }

  /** The total last counted for this filter (`countedScopeKey`); it holds only while its version is current. */
  countedTotal(organizationId: string, scope: string): CountedTotal | undefined {
    return this.totals.get(scopedKey(organizationId, scope))
  }

  keepCountedTotal(organizationId: string, scope: string, counted: CountedTotal): void {
    this.totals.set(scopedKey(organizationId, scope), counted)
  }
}

/** A map that keeps at most `maxWeight` in entries, dropping the least recently used. */
class Recent<V> {
  private readonly entries = new Map<string, V>()
  private weight = 0

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key)
    if (value !== undefined) {
      this.entries.delete(key)
      this.entries.set(key, value)
    }
    return value
  }

  set(key: string, value: V): void {
    const weight = this.weigh(value)
    if (weight > this.maxWeight) return
    this.forget(key)
    while (this.weight + weight > this.maxWeight) this.forget(this.entries.keys().next().value!)
    this.entries.set(key, value)
    this.weight += weight
  }

  private forget(key: string): void {
    const value = this.entries.get(key)
    if (value === undefined) return
    this.entries.delete(key)
    this.weight -= this.weigh(value)
  }
}

/** One string per distinct list request: the filters in a fixed order, the collection, the order, the page (and where a cursor starts it). */
export function listQueryKey(filter: AssetFilter, page: Page, inCollection: string | undefined, sort: AssetSort, after?: Keyset): string {
  return JSON.stringify([...scopeOf(filter, inCollection), sort.key, sort.descending, page.limit, page.offset, after?.key ?? null, after?.id ?? null])
}

/** One string per set of assets a list can page through: the filters in a fixed order and the collection. */
export function countedScopeKey(filter: AssetFilter, inCollection: string | undefined): string {
  return JSON.stringify(scopeOf(filter, inCollection))
}

function scopeOf(filter: AssetFilter, inCollection: string | undefined) {
  return [inCollection ?? null, filter.asset_type ?? null, filter.client ?? null, filter.product ?? null, filter.tag ?? null, filter.tag_prefix ?? null, filter.q ?? null, filter.color ?? null, filter.provenance ?? null]
}

function scopedKey(organizationId: string, key: string): string {
  return `${organizationId}\n${key}`
}
