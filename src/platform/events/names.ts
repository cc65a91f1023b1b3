/** The spec's event kinds, in its order. A leaf: the database schema and the outbox both take them from here. */
export const EVENT_NAMES = [
  'ping',
  'asset.created',
  'asset.updated',
  'asset.deleted',
  'asset.restored',
  'collection.created',
  'collection.shared',
  'member.invited',
  'member.joined',
] as const

export type EventName = (typeof EVENT_NAMES)[number]
