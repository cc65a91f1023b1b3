import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { appApi, unwrap, type AppData } from '../../api/client'
import { problemCodeOf } from '../../api/problem'
import { useOrg, useSession } from '../../session'
import { FIGMA_CONNECTION_KEY } from '../import/api'
import { ConfirmDialog } from '../../ui/Dialog'
import { FormError } from '../../ui/FormError'
import { formatDate } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { Table } from '../../ui/Table'
import { useToast } from '../../ui/toast'
import { SectionHeader } from './parts'
import { useConfirmedMutation } from './useConfirmedMutation'
import './integrations.css'

type Connection = AppData<'/app/api/orgs/{org}/integrations/figma', 'get'>
type FigmaWebhook = AppData<'/app/api/orgs/{org}/integrations/figma/webhooks', 'get'>['data'][number]
type EventType = FigmaWebhook['event_type']

/** The Import screen reads the connection under this key too. */
const connectionKey = (org: string) => [FIGMA_CONNECTION_KEY, org]
const webhooksKey = (org: string) => ['figma-webhooks', org]

/** Settings › Integrations: the organization's Figma token (owners and admins change it, members see whose it is) and its Figma webhooks. */
export function IntegrationsSection() {
  const org = useOrg()
  const { canManage } = useSession()
  const connection = useQuery({
    queryKey: connectionKey(org),
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/integrations/figma', { params: { path: { org } } })),
    meta: { quiet: true },
  })
  return (
    <section className="stack" aria-labelledby="integrations-title">
      <SectionHeader title="Integrations" id="integrations-title" />
      <p className="muted section-intro">
        Connect Figma to import frames and components from the Import screen, the CLI or MCP without giving a token each time, and to sync them when a file changes.
      </p>
      <section className="panel stack integration-panel" aria-labelledby="figma-token-title">
        <h3 id="figma-token-title">Figma token</h3>
        {connection.isPending && <p className="muted">Loading…</p>}
        {connection.isError && <QueryError error={connection.error} onRetry={() => void connection.refetch()} what="the Figma connection" />}
        {connection.data && <ConnectionState connection={connection.data} />}
        {connection.data && canManage && <TokenForm connected={connection.data.connected} />}
        {connection.data && !canManage && !connection.data.connected && <p className="muted">An owner or admin of the organization can connect it.</p>}
      </section>
      {canManage && connection.data?.connected && <FigmaWebhooks />}
    </section>
  )
}

function ConnectionState({ connection }: { connection: Connection }) {
  if (!connection.connected) return <p>Figma is not connected.</p>
  const user = connection.figma_user
  return (
    <p role="status">
      <span className="badge ok">Connected</span> with the token of <strong>{user?.handle ?? 'a Figma user'}</strong>
      {user?.email && <> ({user.email})</>}
      {connection.connected_by && <>, stored by {connection.connected_by}</>}
      {connection.updated_at && <> on {formatDate(connection.updated_at)}</>}.
    </p>
  )
}

/** Store or replace the token (checked with Figma at once), or remove it after a confirmation. */
function TokenForm({ connected }: { connected: boolean }) {
  const org = useOrg()
  const queryClient = useQueryClient()
  const toast = useToast()
  const [token, setToken] = useState('')
  const hint = useId()
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: connectionKey(org) }), queryClient.invalidateQueries({ queryKey: webhooksKey(org) })])
  const store = useMutation({
    mutationFn: () => unwrap(appApi.PUT('/app/api/orgs/{org}/integrations/figma', { params: { path: { org } }, body: { token: token.trim() } })),
    onSuccess: (stored) => {
      setToken('')
      queryClient.setQueryData(connectionKey(org), stored)
      toast.success(`Figma is connected with the token of ${stored.figma_user?.handle ?? 'its owner'}.`)
    },
    gcTime: 0,
    meta: { quiet: true },
  })
  const remove = useConfirmedMutation({
    mutationFn: () => unwrap(appApi.DELETE('/app/api/orgs/{org}/integrations/figma', { params: { path: { org } } })),
    onSuccess: () => {
      toast.success('The Figma token is removed.')
      void refresh()
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (token.trim()) store.mutate()
  }
  return (
    <>
      <form className="stack" onSubmit={submit}>
        <div className="integration-form">
          <label className="field grow">
            <span>{connected ? 'Replace with another token' : 'Personal access token'}</span>
            <input type="password" value={token} onChange={(e) => setToken(e.target.value)} minLength={8} maxLength={400} autoComplete="off" spellCheck={false} placeholder="figd_…" aria-describedby={hint} />
          </label>
          <button type="submit" className="primary" disabled={store.isPending || token.trim().length < 8}>
            {store.isPending ? 'Checking…' : connected ? 'Replace token' : 'Connect Figma'}
          </button>
          {connected && (
            <button type="button" className="danger" onClick={() => remove.ask(undefined)}>
              Remove token
            </button>
          )}
        </div>
        <small id={hint} className="hint">
          Make one in Figma under Settings › Security › Personal access tokens, with read access to files (and webhooks, to sync on changes). It is checked with Figma, kept encrypted, and never shown again.
        </small>
        <FormError error={store.error} />
      </form>
      <ConfirmDialog title="Remove the Figma token?" confirmLabel="Remove token" {...remove.dialog}>
        <p>Imports without a token of their own stop working, and the organization’s Figma webhooks are removed.</p>
      </ConfirmDialog>
    </>
  )
}

const EVENTS: Record<EventType, string> = {
  FILE_UPDATE: 'File saved (FILE_UPDATE)',
  LIBRARY_PUBLISH: 'Library published (LIBRARY_PUBLISH)',
}

/** The Figma webhooks: each event re-runs the imports of the file it names. */
function FigmaWebhooks() {
  const org = useOrg()
  const queryClient = useQueryClient()
  const toast = useToast()
  const webhooks = useQuery({
    queryKey: webhooksKey(org),
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/integrations/figma/webhooks', { params: { path: { org } } })),
    meta: { quiet: true },
  })
  const refresh = () => void queryClient.invalidateQueries({ queryKey: webhooksKey(org) })
  const remove = useConfirmedMutation({
    mutationFn: (hook: FigmaWebhook) => unwrap(appApi.DELETE('/app/api/orgs/{org}/integrations/figma/webhooks/{id}', { params: { path: { org, id: hook.id } } })),
    onSuccess: () => {
      toast.success('The Figma webhook is removed.')
      refresh()
    },
  })
  const list = webhooks.data?.data ?? []
  return (
    <section className="panel stack integration-panel" aria-labelledby="figma-webhooks-title">
      <h3 id="figma-webhooks-title">Figma webhooks</h3>
      <p className="muted">When Figma reports a change, the imports of that file sync on their own (a burst of saves makes one sync). Figma must be able to reach this server.</p>
      <NewFigmaWebhook onCreated={refresh} />
      {webhooks.isPending && <p className="muted">Loading webhooks…</p>}
      {webhooks.isError && <QueryError error={webhooks.error} onRetry={() => void webhooks.refetch()} what="the Figma webhooks" />}
      {webhooks.data && list.length === 0 && <p className="muted">No Figma webhooks yet.</p>}
      {list.length > 0 && (
        <Table columns={['Event', 'Watches', 'Endpoint', 'Created', { label: 'Actions', hidden: true }]} caption="Figma webhooks" stacked>
          {list.map((hook) => (
            <tr key={hook.id}>
              <td>
                <span className="chip mono">{hook.event_type}</span>
              </td>
              <td>
                {hook.context === 'file' ? 'File' : hook.context === 'team' ? 'Team' : 'Project'} <code className="mono">{hook.context_id}</code>
              </td>
              <td className="url-cell">
                <code className="mono break">{hook.endpoint}</code>
              </td>
              <td className="nowrap">{formatDate(hook.created_at)}</td>
              <td className="actions-cell">
                <button type="button" className="danger small" onClick={() => remove.ask(hook)} aria-label={`Remove the ${hook.event_type} webhook of ${hook.context} ${hook.context_id}`}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <ConfirmDialog title="Remove this Figma webhook?" confirmLabel="Remove webhook" {...remove.dialog}>
        <p>
          Figma stops sending <strong>{remove.asked?.event_type}</strong> events for {remove.asked?.context} <code className="mono">{remove.asked?.context_id}</code>; its imports then sync only when
          asked.
        </p>
      </ConfirmDialog>
    </section>
  )
}

type Target = 'file' | 'team'

function NewFigmaWebhook({ onCreated }: { onCreated(): void }) {
  const org = useOrg()
  const ids = useId()
  const toast = useToast()
  const [eventType, setEventType] = useState<EventType>('FILE_UPDATE')
  const [target, setTarget] = useState<Target>('file')
  const [value, setValue] = useState('')
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        appApi.POST('/app/api/orgs/{org}/integrations/figma/webhooks', {
          params: { path: { org } },
          body: target === 'file' ? { event_type: eventType, file_url: value.trim() } : { event_type: eventType, context: 'team', context_id: value.trim() },
        }),
      ),
    onSuccess: () => {
      setValue('')
      toast.success('The Figma webhook is registered.')
      onCreated()
    },
    gcTime: 0,
    meta: { quiet: true },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (value.trim()) create.mutate()
  }
  return (
    <form className="stack" onSubmit={submit} aria-labelledby={`${ids}-title`}>
      <h4 id={`${ids}-title`} className="visually-hidden">
        New Figma webhook
      </h4>
      <div className="integration-form">
        <label className="field">
          <span>Event</span>
          <select value={eventType} onChange={(e) => setEventType(e.target.value as EventType)}>
            {(Object.keys(EVENTS) as EventType[]).map((event) => (
              <option key={event} value={event}>
                {EVENTS[event]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>For</span>
          <select
            value={target}
            onChange={(e) => {
              setTarget(e.target.value as Target)
              setValue('')
            }}
          >
            <option value="file">A file</option>
            <option value="team">A team</option>
          </select>
        </label>
        <label className="field grow">
          <span>{target === 'file' ? 'Figma file link' : 'Figma team id'}</span>
          {target === 'file' ? (
            <input type="url" value={value} onChange={(e) => setValue(e.target.value)} placeholder="https://www.figma.com/design/…" autoComplete="off" />
          ) : (
            <input value={value} onChange={(e) => setValue(e.target.value)} placeholder="e.g. 1234567890" pattern="[A-Za-z0-9:_\-]+" autoComplete="off" aria-describedby={`${ids}-team`} />
          )}
        </label>
        <button type="submit" className="primary" disabled={create.isPending || !value.trim()}>
          Add webhook
        </button>
      </div>
      {target === 'team' && (
        <small className="hint" id={`${ids}-team`}>
          The number after <code>/team/</code> in the team’s Figma address.
        </small>
      )}
      {problemCodeOf(create.error) === 'public_url_required' ? (
        <p className="form-error" role="alert">
          Figma cannot reach this server: its public address (<code>PUBLIC_BASE_URL</code>) is a local or private one. Ask your operator to set it to an address on the internet, then add the webhook.
        </p>
      ) : (
        <FormError error={create.error} />
      )}
    </form>
  )
}
