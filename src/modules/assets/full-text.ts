import { sql, type RawBuilder } from 'kysely'

/**
 * The query side of the assets' full-text column. The column (migration 0004) holds every word of an
 * asset twice, English-stemmed and exact, accent- and case-folded; a query term matches either form, so
 * "banners" finds "Banner" and "Acme-2" finds itself. Web-search syntax: "quoted phrases", `-word`,
 * `or`; the last word as typed also matches as a prefix ("spri" finds "spring").
 */

/**
 * Mirrors the SQL function asset_library_fold: NFKD, combining marks dropped, letters NFKD keeps whole
 * spelled out, then NFC again (Hangul syllables, for one, come back together).
 */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ßæœøłđðþ]/g, (letter) => LETTERS[letter]!)
    .normalize('NFC')
}

const LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th' }

export interface Term {
  /** As the user typed it; folded when matched against the column. */
  text: string
  phrase: boolean
  negated: boolean
  prefix: boolean
}

/** Shorter prefixes match too much of a library to help anyone. */
const MIN_PREFIX_LENGTH = 2
const PLAIN_WORD = /^[\p{L}\p{N}]+$/u

/** The terms of `query` as OR-groups of AND-ed terms, as websearch_to_tsquery reads them. */
export function parseQuery(query: string): Term[][] {
  const groups: Term[][] = [[]]
  const tokens = tokenize(query)
  tokens.forEach((token, index) => {
    if (!token.phrase && !token.negated && token.text.toLowerCase() === 'or') {
      if (groups.at(-1)!.length > 0 && index < tokens.length - 1) groups.push([])
      return
    }
    groups.at(-1)!.push(token)
  })
  const last = tokens.at(-1)
  const typedOn = !/[\s"]$/.test(query)
  const folded = last && foldText(last.text)
  if (last && folded && typedOn && !last.phrase && !last.negated && folded.length >= MIN_PREFIX_LENGTH && PLAIN_WORD.test(folded)) last.prefix = true
  return groups.filter((group) => group.length > 0)
}

function tokenize(text: string): Term[] {
  const tokens: Term[] = []
  const pattern = /(-?)(?:"([^"]*)"?|([^\s"]+))/g
  for (const match of text.matchAll(pattern)) {
    const [, minus, phrase, word] = match
    const value = (phrase ?? word ?? '').trim()
    if (value && value !== '-') tokens.push({ text: value, phrase: phrase !== undefined, negated: minus === '-', prefix: false })
  }
  return tokens
}

/**
 * Which forms of each term a tsquery matches: both (what a query matches), or only one of them. The
 * planner adds the selectivities of `'meridian' | 'meridian':*` as if the two forms matched different
 * assets, when they mostly match the same ones, so an estimate asks for each form alone and keeps the
 * larger (see store.estimatedMatches).
 */
export type TermForms = 'both' | 'stemmed' | 'exact'

/** A tsquery for `query`, or undefined when it has no terms; matched against `assets.search`. */
export function textQuery(query: string, forms: TermForms = 'both'): RawBuilder<string> | undefined {
  return tsqueryOf(parseQuery(query), forms)
}

/** The tsquery of parsed terms (see parseQuery), or undefined when there are none. */
export function tsqueryOf(groups: Term[][], forms: TermForms = 'both'): RawBuilder<string> | undefined {
  if (groups.length === 0) return undefined
  const group = (terms: Term[]) => sql.join(terms.map((term) => termQuery(term, forms)), sql` && `)
  return sql<string>`(${sql.join(groups.map((terms) => sql`(${group(terms)})`), sql` || `)})`
}

function termQuery(term: Term, forms: TermForms): RawBuilder<string> {
  const text = foldText(term.text)
  const stemmed = sql<string>`phraseto_tsquery('english', ${text})`
  const exact = term.prefix ? sql<string>`to_tsquery('simple', ${`${text}:*`})` : sql<string>`phraseto_tsquery('simple', ${text})`
  const matched = forms === 'stemmed' ? stemmed : forms === 'exact' ? exact : sql<string>`(${stemmed} || ${exact})`
  return term.negated ? sql<string>`!!${matched}` : matched
}
