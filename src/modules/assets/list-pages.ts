import type { Page } from '../../platform/http/pagination.js'
import type { AssetFilter } from './store.js'

/** What a page of the list answers, as the service computed it. */
export interface ListedPage<R> {
  data: R[]
  total: number
  limit: number
  offset: number
}

interface CachedPage<R> {
  /** `organizations.library_version` in the snapshot the page was read from (null: none, never reused). */
  version: string | null
  /** The expiry of the signed URLs in it: a page is only reused while a fresh one would sign the same links. */
  linksExpire: number
  page: ListedPage<R>
}

/**
 * Recently listed pages, per organization and query. A page is only reused after the caller has read the
 * organization's `library_version` and found it unchanged: triggers move the version in the transaction
 * of any change a page could show, so a reused page is exactly what the list statement would answer, on
 * any number of processes, and a write is visible to the next read as soon as it commits.
 *
 * Bounded by the records held (least recently used out first); a budget of 0 keeps nothing.
 */
export class ListPages<R> {
  private readonly pages = new Map<string, CachedPage<R>>()
  private records = 0

  constructor(private readonly maxRecords: number) {}

  /** The page kept for this query, marked as just used; reuse it only if `version` and `linksExpire` still hold. */
  get(organizationId: string, query: string): CachedPage<R> | undefined {
    const key = pageKey(organizationId, query)
    const entry = this.pages.get(key)
    if (entry) {
      this.pages.delete(key)
      this.pages.set(key, entry)
    }
    return entry
  }

  keep(organizationId: string, query: string, entry: CachedPage<R>): void {
    const size = entry.page.data.length + 1
    if (size > this.maxRecords) return
    const key = pageKey(organizationId, query)
    this.forget(key)
    while (this.records + size > this.maxRecords) this.forget(this.pages.keys().next().value!)
    this.pages.set(key, entry)
    this.records += size
  }

  private forget(key: string): void {
    const entry = this.pages.get(key)
    if (!entry) return
    this.pages.delete(key)
    this.records -= entry.page.data.length + 1
  }
}

/** One string per distinct list request: the filters in a fixed order, the collection, the page. */
export function listQueryKey(filter: AssetFilter, page: Page, inCollection: string | undefined): string {
  return JSON.stringify([inCollection ?? null, filter.asset_type ?? null, filter.client ?? null, filter.product ?? null, filter.tag ?? null, filter.q ?? null, page.limit, page.offset])
}

function pageKey(organizationId: string, query: string): string {
  return `${organizationId}\n${query}`
}
