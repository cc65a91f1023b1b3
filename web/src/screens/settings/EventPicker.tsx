import { EVENT_KINDS, type PickableEvent } from './events'

/** Checkboxes of the event kinds a subscription receives, with a toggle for all of them. */
export function EventPicker({ value, onChange, disabled }: { value: readonly PickableEvent[]; onChange(next: PickableEvent[]): void; disabled?: boolean }) {
  const chosen = new Set(value)
  const all = EVENT_KINDS.every((e) => chosen.has(e.kind))
  const toggle = (kind: PickableEvent, on: boolean) => {
    const next = new Set(chosen)
    if (on) next.add(kind)
    else next.delete(kind)
    // Keep the table's order, whatever the clicking order.
    onChange(EVENT_KINDS.map((e) => e.kind).filter((k) => next.has(k)))
  }
  return (
    <fieldset className="event-picker" disabled={disabled}>
      <legend>Events</legend>
      <label className="event-option event-all">
        <input type="checkbox" checked={all} onChange={(e) => onChange(e.target.checked ? EVENT_KINDS.map((k) => k.kind) : [])} />
        <span>All events</span>
      </label>
      {EVENT_KINDS.map((event) => (
        <label key={event.kind} className="event-option">
          <input type="checkbox" checked={chosen.has(event.kind)} onChange={(e) => toggle(event.kind, e.target.checked)} />
          <span>
            <code>{event.kind}</code>
            <small>{event.description}</small>
          </span>
        </label>
      ))}
      <small className="hint">Test pings are sent whatever you pick.</small>
    </fieldset>
  )
}
