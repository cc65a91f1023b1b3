import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useLocation } from 'wouter'
import { appApi, unwrap, type AppData } from '../../api/client'
import { ApiError } from '@asset-library/client'
import { useOrg } from '../../session'
import { ConfirmDialog, Dialog } from '../../ui/Dialog'
import { formatDate } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { useToast } from '../../ui/toast'
import { Deliveries } from './Deliveries'
import { EventPicker } from './EventPicker'
import { pickable, type PickableEvent } from './events'
import { isPast, OnceSecret } from './parts'
import { useConfirmedMutation } from './useConfirmedMutation'
import { describeDisabledReason } from './answers'

type Webhook = AppData<'/app/api/orgs/{org}/webhooks/{id}', 'get'>
type Rotated = AppData<'/app/api/orgs/{org}/webhooks/{id}/rotate-secret', 'post'>

/** One subscription: its switches, events, secret rotation, test ping, deletion and delivery history. */
export function WebhookDetail({ id }: { id: string }) {
  const org = useOrg()
  const webhook = useQuery({
    queryKey: ['webhooks', org, id],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/webhooks/{id}', { params: { path: { org, id } } })),
    meta: { quiet: true },
  })
  const gone = webhook.error instanceof ApiError && webhook.error.status === 404
  return (
    <section className="stack" aria-labelledby="webhook-title">
      <Link href="/webhooks" className="back-link">
        ← Webhooks
      </Link>
      {webhook.isPending && <p className="muted">Loading the webhook…</p>}
      {gone && <p className="page-message">There is no such webhook: it may have been deleted.</p>}
      {webhook.isError && !gone && <QueryError error={webhook.error} onRetry={() => void webhook.refetch()} what="the webhook" />}
      {webhook.data && <WebhookPanel webhook={webhook.data} />}
      {webhook.data && <Deliveries webhookId={id} enabled={webhook.data.enabled} />}
    </section>
  )
}

function WebhookPanel({ webhook }: { webhook: Webhook }) {
  const org = useOrg()
  const queryClient = useQueryClient()
  const toast = useToast()
  const [, navigate] = useLocation()
  const path = { org, id: webhook.id }
  const [events, setEvents] = useState<PickableEvent[]>(() => pickable(webhook.events))
  const [rotated, setRotated] = useState<Rotated | null>(null)
  const refresh = (updated?: Webhook) => {
    if (updated) queryClient.setQueryData(['webhooks', org, webhook.id], updated)
    void queryClient.invalidateQueries({ queryKey: ['webhooks', org] })
  }

  const update = useMutation({
    mutationFn: (body: { enabled?: boolean; events?: string[] }) =>
      unwrap(appApi.PATCH('/app/api/orgs/{org}/webhooks/{id}', { params: { path }, body })),
    onSuccess: (updated, body) => {
      refresh(updated)
      if (body.events) toast.success('Events saved.')
      if (body.enabled !== undefined) toast.success(body.enabled ? 'Webhook enabled.' : 'Webhook disabled: nothing is sent to it.')
    },
  })
  const ping = useMutation({
    mutationFn: () => unwrap(appApi.POST('/app/api/orgs/{org}/webhooks/{id}/ping', { params: { path } })),
    onSuccess: () => {
      toast.success('Test ping sent.')
      void queryClient.invalidateQueries({ queryKey: ['deliveries', org, webhook.id] })
    },
  })
  // Rotating twice would leave receivers with neither secret: the confirmation runs it once.
  const rotate = useConfirmedMutation<void, Rotated>({
    mutationFn: () => unwrap(appApi.POST('/app/api/orgs/{org}/webhooks/{id}/rotate-secret', { params: { path } })),
    onSuccess: (answer) => {
      setRotated(answer)
      refresh()
    },
  })
  const remove = useConfirmedMutation<void>({
    mutationFn: () => unwrap(appApi.DELETE('/app/api/orgs/{org}/webhooks/{id}', { params: { path } })),
    onSuccess: () => {
      toast.success('Webhook deleted.')
      queryClient.removeQueries({ queryKey: ['webhooks', org, webhook.id] })
      void queryClient.invalidateQueries({ queryKey: ['webhooks', org] })
      navigate('/webhooks', { replace: true })
    },
  })
  const saved = pickable(webhook.events)
  const eventsChanged = saved.length !== events.length || saved.some((e) => !events.includes(e))

  return (
    <>
      <header className="page-header webhook-header">
        <div className="webhook-heading">
          <h2 id="webhook-title" className="section-title mono break">
            {webhook.url}
          </h2>
          <p className="muted">
            {webhook.description || 'No description'} · created {formatDate(webhook.created_at)}
          </p>
        </div>
        <div className="actions">
          <button type="button" onClick={() => ping.mutate()} disabled={ping.isPending || !webhook.enabled} title={webhook.enabled ? undefined : 'Enable the webhook to ping it'}>
            Send test ping
          </button>
          <button type="button" onClick={() => rotate.ask()}>
            Rotate secret
          </button>
          <button type="button" className="danger" onClick={() => remove.ask()}>
            Delete
          </button>
        </div>
      </header>

      <div className="panel stack">
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={webhook.enabled}
            disabled={update.isPending}
            onChange={(e) => update.mutate({ enabled: e.target.checked })}
          />
          <span>
            <strong>Enabled</strong>
            <small className="hint">{webhook.enabled ? 'Events are delivered to this endpoint.' : 'Disabled: nothing is sent, not even pings.'}</small>
          </span>
        </label>
        <EndpointHealth webhook={webhook} />
        {webhook.previous_secret_expires_at && !isPast(webhook.previous_secret_expires_at) && (
          <p className="hint">
            Deliveries are also signed with the previous secret until {formatDate(webhook.previous_secret_expires_at)}.
          </p>
        )}
        <EventPicker value={events} onChange={setEvents} disabled={update.isPending} />
        <div className="row">
          <button type="button" className="primary" disabled={!eventsChanged || events.length === 0 || update.isPending} onClick={() => update.mutate({ events })}>
            Save events
          </button>
          {eventsChanged && (
            <button type="button" onClick={() => setEvents(saved)}>
              Undo changes
            </button>
          )}
        </div>
      </div>

      <ConfirmDialog title="Rotate the signing secret?" confirmLabel="Rotate secret" {...rotate.dialog}>
        <p>A new secret signs every delivery from now on. The current one keeps working for a while, so you can update your receiver without dropping deliveries.</p>
      </ConfirmDialog>
      <ConfirmDialog title="Delete this webhook?" confirmLabel="Delete webhook" {...remove.dialog}>
        <p>
          Nothing more is sent to <code className="mono break">{webhook.url}</code>, and its delivery history goes with it.
        </p>
      </ConfirmDialog>
      <Dialog title="New signing secret" open={rotated !== null} onClose={() => setRotated(null)}>
        {rotated && (
          <div className="stack">
            <OnceSecret label="Signing secret" value={rotated.secret} onDone={() => setRotated(null)}>
              {rotated.previous_secret_expires_at
                ? ` The previous secret keeps working until ${formatDate(rotated.previous_secret_expires_at)}: deliveries carry both signatures until then.`
                : ' The previous secret no longer works.'}
            </OnceSecret>
          </div>
        )}
      </Dialog>
    </>
  )
}

/** Why the service disabled the endpoint (enabling it clears this), or since when it has been failing. */
function EndpointHealth({ webhook }: { webhook: Webhook }) {
  if (webhook.disabled_reason) {
    return (
      <p className="once-warning" role="note">
        <strong>Disabled automatically{webhook.disabled_at && ` on ${formatDate(webhook.disabled_at)}`}.</strong> {describeDisabledReason(webhook.disabled_reason)} Fix the endpoint, then enable
        the webhook: the deliveries waiting for it are sent then.
      </p>
    )
  }
  if (webhook.enabled && webhook.failing_since) {
    return (
      <p className="hint">
        Every delivery attempt has failed since {formatDate(webhook.failing_since)}. An endpoint that keeps failing for days is disabled automatically.
      </p>
    )
  }
  return null
}
