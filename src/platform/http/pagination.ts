import { Type, type TSchema } from 'typebox'

export const DEFAULT_LIMIT = 50
export const MAX_LIMIT = 100

/** `limit` above the maximum is capped, not refused (the spec says the list "caps" it); below 1 is a 400. */
export const PaginationQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, default: DEFAULT_LIMIT, description: `Page size; values above ${MAX_LIMIT} are capped to ${MAX_LIMIT}.` })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'How many items to skip.' })),
}

export interface Page {
  limit: number
  offset: number
}

export function pageOf(query: { limit?: number; offset?: number }): Page {
  return { limit: Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT), offset: query.offset ?? 0 }
}

/** The list envelope of every paginated endpoint. */
export function ListSchema<T extends TSchema>(item: T, description: string) {
  return Type.Object(
    {
      data: Type.Array(item),
      total: Type.Integer({ description: 'Items matching, across all pages.' }),
      limit: Type.Integer(),
      offset: Type.Integer(),
    },
    { description },
  )
}
