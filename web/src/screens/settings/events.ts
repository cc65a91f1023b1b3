import type { components } from '../../api/app.gen'

export type EventKind = components['schemas']['AppWebhookSubscription']['events'][number]
export type DeliveryStatus = components['schemas']['AppWebhookDelivery']['status']

/** What a subscription can pick: every event but `ping`, which is sent on demand whatever is picked. */
export type PickableEvent = Exclude<EventKind, 'ping'>

/** The events a subscription can pick, with what fires them (the spec's table). */
export const EVENT_KINDS: ReadonlyArray<{ kind: PickableEvent; description: string }> = [
  { kind: 'asset.created', description: 'An upload, an import or POST /api/v1/assets creates an asset' },
  { kind: 'asset.updated', description: 'Asset metadata is edited, or a new version of its file is uploaded' },
  { kind: 'asset.deleted', description: 'An asset is moved to the trash' },
  { kind: 'asset.restored', description: 'An asset comes back from the trash' },
  { kind: 'collection.created', description: 'A collection is created' },
  { kind: 'collection.shared', description: 'A collection is shared by public link' },
  { kind: 'member.invited', description: 'A teammate is invited' },
  { kind: 'member.joined', description: 'An invitation is accepted' },
]

/** The subscription's picked events, without the `ping` the server may list. */
export const pickable = (events: readonly EventKind[]): PickableEvent[] => events.filter((e): e is PickableEvent => e !== 'ping')

export const ALL_EVENTS: readonly EventKind[] = ['ping', ...EVENT_KINDS.map((e) => e.kind)]
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed']

export interface DeliveryFilters {
  status?: DeliveryStatus
  event?: EventKind
  offset: number
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((v) => v === value)

/** The delivery filters in a URL query (`?status=failed&event=ping&offset=20`); unknown values are ignored. */
export function filtersFromSearch(search: URLSearchParams): DeliveryFilters {
  const offset = Number.parseInt(search.get('offset') ?? '', 10)
  return {
    status: oneOf(DELIVERY_STATUSES, search.get('status')),
    event: oneOf(ALL_EVENTS, search.get('event')),
    offset: Number.isFinite(offset) && offset > 0 ? offset : 0,
  }
}

/** The URL query for the filters, without the defaults (no offset 0, no empty filter). */
export function searchFromFilters(filters: DeliveryFilters): URLSearchParams {
  const search = new URLSearchParams()
  if (filters.status) search.set('status', filters.status)
  if (filters.event) search.set('event', filters.event)
  if (filters.offset > 0) search.set('offset', String(filters.offset))
  return search
}
