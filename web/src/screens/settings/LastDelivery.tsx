import type { AppData } from '../../api/client'
import { formatDate } from '../../ui/format'
import { describeAnswer } from './answers'

type LastDeliveryData = NonNullable<AppData<'/app/api/orgs/{org}/webhooks', 'get'>['data'][number]['last_delivery']>

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', Infinity],
]

/** "2 minutes ago", "yesterday": how long ago a moment was, in its largest whole unit (a helper: no clock read in render). */
export function timeAgo(iso: string, now = Date.now()): string {
  let amount = Math.round((new Date(iso).getTime() - now) / 1000)
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return unit === 'second' && Math.abs(amount) < 10 ? 'just now' : relative.format(amount, unit)
    amount = Math.round(amount / size)
  }
  return formatDate(iso)
}

/** What the receiver answered last, in words ("Answered 500", "Connection refused"). */
const answer = (delivery: LastDeliveryData) => describeAnswer({ statusCode: delivery.last_status_code, error: delivery.last_error })

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDate(iso)}>
      {timeAgo(iso)}
    </time>
  )
}

/** How a subscription's newest delivery went: delivered, failed and why, being retried, or none yet. */
export function LastDelivery({ delivery }: { delivery: LastDeliveryData | null }) {
  if (!delivery) return <span className="muted">No deliveries yet</span>
  switch (delivery.status) {
    case 'succeeded':
      return (
        <span className="last-delivery">
          <span className="badge ok">Delivered</span>
          <When iso={delivery.updated_at} />
        </span>
      )
    case 'failed':
      return (
        <span className="last-delivery">
          <span className="badge bad">Failed: {answer(delivery)}</span>
          <When iso={delivery.updated_at} />
        </span>
      )
    case 'pending':
      return delivery.attempt_count === 0 ? (
        <span className="last-delivery">
          <span className="badge warn">Sending</span>
        </span>
      ) : (
        <span className="last-delivery">
          <span className="badge warn">Retrying: {answer(delivery)}</span>
          {delivery.next_attempt_at && <span className="muted small-text">next try {formatDate(delivery.next_attempt_at)}</span>}
        </span>
      )
  }
}
