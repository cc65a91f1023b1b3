import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Link } from 'wouter'
import { appApi, unwrap } from '../../api/client'
import { useOrg } from '../../session'
import { Dialog } from '../../ui/Dialog'
import { EmptyState } from '../../ui/EmptyState'
import { FormError } from '../../ui/FormError'
import { formatDate } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { Table } from '../../ui/Table'
import { EventPicker } from './EventPicker'
import { LastDelivery } from './LastDelivery'
import type { PickableEvent } from './events'
import { OnceSecret, SectionHeader } from './parts'
import { describeDisabledReason } from './answers'

export function WebhooksSection() {
  const org = useOrg()
  const queryClient = useQueryClient()
  const webhooks = useQuery({
    queryKey: ['webhooks', org],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/webhooks', { params: { path: { org } } })),
    meta: { quiet: true },
  })
  const [creating, setCreating] = useState(false)
  const list = webhooks.data?.data ?? []
  return (
    <section className="stack" aria-labelledby="webhooks-title">
      <SectionHeader title="Webhooks" id="webhooks-title">
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New webhook
        </button>
      </SectionHeader>
      <p className="muted section-intro">
        A webhook POSTs a signed JSON body to your HTTPS endpoint when something happens in the library. Each delivery is retried on failure, and its history is kept.
      </p>
      {webhooks.isPending && <p className="muted">Loading webhooks…</p>}
      {webhooks.isError && <QueryError error={webhooks.error} onRetry={() => void webhooks.refetch()} what="the webhooks" />}
      {webhooks.data && list.length === 0 && (
        <EmptyState title="No webhooks yet">
          <p>Subscribe an HTTPS endpoint to events such as asset.created to sync a CMS, a chat channel or a build.</p>
        </EmptyState>
      )}
      {list.length > 0 && (
        <Table columns={['Endpoint', 'Events', 'Status', 'Last delivery', 'Created']} caption="Webhooks" stacked>
          {list.map((hook) => (
            <tr key={hook.id}>
              <td className="url-cell">
                <Link href={`/webhooks/${hook.id}`} className="mono" title={hook.url}>
                  {hook.url}
                </Link>
                {hook.description && <div className="muted small-text">{hook.description}</div>}
              </td>
              <td>
                <div className="chips">
                  {hook.events.map((event) => (
                    <span key={event} className="chip mono">
                      {event}
                    </span>
                  ))}
                </div>
              </td>
              <td>
                {hook.enabled ? <span className="badge ok">Enabled</span> : <span className="badge">Disabled</span>}
                {hook.disabled_reason && <div className="muted small-text">{describeDisabledReason(hook.disabled_reason)}</div>}
              </td>
              <td>
                <LastDelivery delivery={hook.last_delivery} />
              </td>
              <td className="nowrap">{formatDate(hook.created_at)}</td>
            </tr>
          ))}
        </Table>
      )}
      <NewWebhookDialog open={creating} onCreated={() => void queryClient.invalidateQueries({ queryKey: ['webhooks', org] })} onClose={() => setCreating(false)} />
    </section>
  )
}

const DEFAULT_EVENTS: PickableEvent[] = ['asset.created', 'asset.updated', 'asset.deleted']

/**
 * The form, then the signing secret shown once in its place (focus moves to it, as the submit button
 * goes). The secret lives only in the mutation, reset when the dialog closes.
 */
function NewWebhookDialog({ open, onCreated, onClose }: { open: boolean; onCreated(): void; onClose(): void }) {
  const org = useOrg()
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [events, setEvents] = useState<PickableEvent[]>(DEFAULT_EVENTS)
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        appApi.POST('/app/api/orgs/{org}/webhooks', {
          params: { path: { org } },
          body: { url: url.trim(), events, ...(description.trim() ? { description: description.trim() } : {}) },
        }),
      ),
    onSuccess: onCreated,
    gcTime: 0,
    meta: { quiet: true },
  })
  const close = () => {
    create.reset()
    setUrl('')
    setDescription('')
    setEvents(DEFAULT_EVENTS)
    onClose()
  }
  const created = create.data
  const notHttps = url.trim() !== '' && !/^https:\/\//i.test(url.trim())
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!notHttps && events.length > 0) create.mutate()
  }
  return (
    <Dialog title={created ? 'Webhook created' : 'New webhook'} open={open} onClose={close}>
      {created ? (
        <div className="stack">
          <p>
            Deliveries to <code className="mono break">{created.url}</code> are signed with this secret: check <code>X-Service-Signature</code> with it.
          </p>
          <OnceSecret label="Signing secret" value={created.secret} takeFocus />
          <div className="row end">
            <button type="button" onClick={close}>
              Close
            </button>
            <Link href={`/webhooks/${created.id}`} className="button primary" onClick={close}>
              Open webhook
            </Link>
          </div>
        </div>
      ) : (
        <form className="stack" onSubmit={submit}>
          <label className="field">
            <span>Endpoint URL</span>
            <input
              type="url"
              required
              placeholder="https://example.com/hooks/asset-library"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              aria-invalid={notHttps}
              aria-describedby="webhook-url-hint"
              data-autofocus
            />
            <small id="webhook-url-hint" className={notHttps ? 'form-error' : undefined}>
              {notHttps ? 'The URL must start with https://.' : 'HTTPS only, on a public address.'}
            </small>
          </label>
          <label className="field">
            <span>Description</span>
            <input maxLength={500} placeholder="Optional: what it feeds" value={description} onChange={(e) => setDescription(e.target.value)} />
          </label>
          <EventPicker value={events} onChange={setEvents} />
          {events.length === 0 && <p className="hint">Pick at least one event.</p>}
          <FormError error={create.error} />
          <div className="row end">
            <button type="button" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="primary" disabled={create.isPending || notHttps || events.length === 0}>
              Create webhook
            </button>
          </div>
        </form>
      )}
    </Dialog>
  )
}
