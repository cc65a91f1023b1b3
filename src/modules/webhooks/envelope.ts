import type { EventName } from '../../platform/events/names.js'

/**
 * The body of a delivery, `{id, event, organization_id, emitted_at, data}`, fixed once when the delivery
 * is made: every attempt sends these bytes. `data` is the event's JSON text as emitted.
 */
export function envelope(deliveryId: string, event: EventName, organizationId: string, emittedAt: Date, data: string): string {
  const head = { id: deliveryId, event, organization_id: organizationId, emitted_at: emittedAt.toISOString() }
  return `${JSON.stringify(head).slice(0, -1)},"data":${data}}`
}
