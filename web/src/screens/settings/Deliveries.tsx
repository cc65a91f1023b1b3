import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useSearchParams } from 'wouter'
import { appApi, unwrap, type AppData } from '../../api/client'
import { useOrg } from '../../session'
import { Dialog } from '../../ui/Dialog'
import { EmptyState } from '../../ui/EmptyState'
import { formatDate, plural } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { useToast } from '../../ui/toast'
import { Table } from '../../ui/Table'
import { describeAnswer } from './answers'
import { ALL_EVENTS, DELIVERY_STATUSES, filtersFromSearch, searchFromFilters, type DeliveryFilters, type DeliveryStatus } from './events'

type Delivery = AppData<'/app/api/orgs/{org}/webhooks/{id}/deliveries', 'get'>['data'][number]
const PAGE = 20
/** While a delivery is pending, the list is polled this often: never faster (GETs share a per-user budget of 120 a minute). */
const POLL_MS = 3000

const STATUS_TONE: Record<DeliveryStatus, string> = { pending: 'warn', succeeded: 'ok', failed: 'bad' }

function StatusBadge({ status }: { status: DeliveryStatus }) {
  return <span className={`badge ${STATUS_TONE[status]}`}>{status}</span>
}

/**
 * The delivery history: filters and page in the URL, polled every 3 s while a delivery is pending and
 * the page is visible (a hidden tab does not poll).
 */
export function Deliveries({ webhookId, enabled }: { webhookId: string; enabled: boolean }) {
  const org = useOrg()
  const [search, setSearch] = useSearchParams()
  const filters = filtersFromSearch(search)
  const setFilters = (next: DeliveryFilters) => setSearch(searchFromFilters(next), { replace: true })
  const [open, setOpen] = useState<string | null>(null)
  const deliveries = useQuery({
    queryKey: ['deliveries', org, webhookId, filters],
    queryFn: () =>
      unwrap(
        appApi.GET('/app/api/orgs/{org}/webhooks/{id}/deliveries', {
          params: {
            path: { org, id: webhookId },
            query: { limit: PAGE, offset: filters.offset, ...(filters.status ? { status: filters.status } : {}), ...(filters.event ? { event: filters.event } : {}) },
          },
        }),
      ),
    refetchInterval: (query) => (query.state.data?.data.some((d) => d.status === 'pending') ? POLL_MS : false),
    refetchIntervalInBackground: false,
    placeholderData: (previous) => previous,
    meta: { quiet: true },
  })
  const page = deliveries.data
  const filtered = filters.status !== undefined || filters.event !== undefined

  return (
    <section className="stack" aria-labelledby="deliveries-title">
      <header className="page-header">
        <h3 id="deliveries-title">Delivery history</h3>
        <div className="actions row">
          <label className="inline-field">
            <span>Status</span>
            <select value={filters.status ?? ''} onChange={(e) => setFilters({ ...filters, status: (e.target.value || undefined) as DeliveryStatus | undefined, offset: 0 })}>
              <option value="">Any</option>
              {DELIVERY_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label className="inline-field">
            <span>Event</span>
            <select value={filters.event ?? ''} onChange={(e) => setFilters({ ...filters, event: (e.target.value || undefined) as DeliveryFilters['event'], offset: 0 })}>
              <option value="">Any</option>
              {ALL_EVENTS.map((event) => (
                <option key={event} value={event}>
                  {event}
                </option>
              ))}
            </select>
          </label>
          <button type="button" onClick={() => void deliveries.refetch()} disabled={deliveries.isFetching}>
            Refresh
          </button>
        </div>
      </header>
      {deliveries.isError && <QueryError error={deliveries.error} onRetry={() => void deliveries.refetch()} what="the deliveries" />}
      {page && page.data.length === 0 && (
        <EmptyState title={filtered ? 'No deliveries match' : 'No deliveries yet'}>
          <p>{filtered ? 'Try another status or event.' : enabled ? 'Send a test ping to check that your endpoint answers.' : 'Enable the webhook to receive deliveries.'}</p>
        </EmptyState>
      )}
      {page && page.data.length > 0 && (
        <>
          <Table columns={['Event', 'Status', 'Attempts', 'Last answer', 'Created', { label: 'Details', hidden: true }]} className="deliveries" caption="Deliveries" stacked>
            {page.data.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} onOpen={() => setOpen(delivery.id)} />
            ))}
          </Table>
          <nav className="pager row" aria-label="Delivery pages">
            <span className="muted">
              {page.offset + 1}–{page.offset + page.data.length} of {page.total}
            </span>
            <button type="button" disabled={filters.offset === 0} onClick={() => setFilters({ ...filters, offset: Math.max(0, filters.offset - PAGE) })}>
              Newer
            </button>
            <button type="button" disabled={page.offset + page.data.length >= page.total} onClick={() => setFilters({ ...filters, offset: filters.offset + PAGE })}>
              Older
            </button>
          </nav>
        </>
      )}
      <Dialog title="Delivery" open={open !== null} onClose={() => setOpen(null)}>
        {open && <DeliveryDetail webhookId={webhookId} deliveryId={open} />}
      </Dialog>
    </section>
  )
}

function DeliveryRow({ delivery, onOpen }: { delivery: Delivery; onOpen(): void }) {
  return (
    <tr>
      <td>
        <code className="mono">{delivery.event}</code>
      </td>
      <td>
        <StatusBadge status={delivery.status} />
        {delivery.status === 'pending' && delivery.next_attempt_at && <div className="hint">next try {formatDate(delivery.next_attempt_at)}</div>}
      </td>
      <td>{delivery.attempt_count}</td>
      <td>{describeAnswer({ statusCode: delivery.last_status_code, error: delivery.last_error })}</td>
      <td className="nowrap">{formatDate(delivery.created_at)}</td>
      <td className="actions-cell">
        <button type="button" className="small" onClick={onOpen}>
          Details<span className="visually-hidden"> of the {delivery.event} delivery of {formatDate(delivery.created_at)}</span>
        </button>
      </td>
    </tr>
  )
}

function DeliveryDetail({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) {
  const org = useOrg()
  const queryClient = useQueryClient()
  const toast = useToast()
  const path = { org, id: webhookId, delivery_id: deliveryId }
  const detail = useQuery({
    queryKey: ['deliveries', org, webhookId, 'detail', deliveryId],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/webhooks/{id}/deliveries/{delivery_id}', { params: { path } })),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? POLL_MS : false),
    refetchIntervalInBackground: false,
    meta: { quiet: true },
  })
  const replay = useMutation({
    mutationFn: () => unwrap(appApi.POST('/app/api/orgs/{org}/webhooks/{id}/deliveries/{delivery_id}/replay', { params: { path } })),
    onSuccess: () => {
      toast.success('Replay sent.')
      void queryClient.invalidateQueries({ queryKey: ['deliveries', org, webhookId] })
    },
  })
  if (detail.isPending) return <p className="muted">Loading the delivery…</p>
  if (detail.isError) return <QueryError error={detail.error} onRetry={() => void detail.refetch()} what="the delivery" />
  const delivery = detail.data
  return (
    <div className="stack delivery-detail">
      <div className="row">
        <code className="mono">{delivery.event}</code>
        <StatusBadge status={delivery.status} />
        <span className="muted">
          {plural(delivery.attempt_count, 'attempt')} · created {formatDate(delivery.created_at)}
        </span>
        <button type="button" className="push-end" disabled={replay.isPending || delivery.status === 'pending'} onClick={() => replay.mutate()}>
          Replay
        </button>
      </div>
      <p className="hint mono break">Delivery id {delivery.id}</p>
      <h3>Attempts</h3>
      {delivery.attempts.length === 0 && <p className="muted">No attempt yet: the first is on its way.</p>}
      <ol className="attempts">
        {delivery.attempts.map((attempt) => (
          <li key={attempt.number} className="attempt">
            <div className="row">
              <strong>#{attempt.number}</strong>
              <span className={`badge ${attempt.error ? 'bad' : 'ok'}`}>{describeAnswer({ statusCode: attempt.status_code, error: attempt.error, durationMs: attempt.duration_ms })}</span>
              <span className="muted">{attempt.trigger}</span>
              <span className="muted">{attempt.duration_ms} ms</span>
              <span className="muted push-end">{formatDate(attempt.attempted_at)}</span>
            </div>
            {attempt.response_body && (
              <pre className="code snippet" tabIndex={0} role="region" aria-label={`Response to attempt ${attempt.number}`}>
                {attempt.response_body}
              </pre>
            )}
          </li>
        ))}
      </ol>
      <h3>Payload</h3>
      <pre className="code snippet payload" tabIndex={0} role="region" aria-label="Payload">
        {JSON.stringify(delivery.body, null, 2)}
      </pre>
    </div>
  )
}
