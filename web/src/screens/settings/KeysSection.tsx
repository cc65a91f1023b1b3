import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Link } from 'wouter'
import { appApi, unwrap, type AppData } from '../../api/client'
import { useOrg } from '../../session'
import { ConfirmDialog, Dialog } from '../../ui/Dialog'
import { EmptyState } from '../../ui/EmptyState'
import { FormError } from '../../ui/FormError'
import { formatDate } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { useToast } from '../../ui/toast'
import { Table } from '../../ui/Table'
import { isPast, OnceSecret, SectionHeader } from './parts'
import { useConfirmedMutation } from './useConfirmedMutation'

export type Key = AppData<'/app/api/orgs/{org}/keys', 'get'>['data'][number]
type Scope = Key['scope']
export type CreatedKey = AppData<'/app/api/orgs/{org}/keys', 'post'>

const SCOPES: Record<Scope, string> = {
  'assets:read': 'Read only: list, fetch and search assets, tags and collections. For dashboards, sites and exports.',
  'assets:write': 'Everything a read key does, plus pushing, editing and deleting assets and collections. For scripts, the command line and AI clients that add assets.',
}
const LIMITS = [
  { bucket: 'expensive', label: 'Pushes and searches a minute' },
  { bucket: 'cheap', label: 'Reads a minute' },
] as const
const EXPIRIES = [
  { value: '', label: 'Never' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 1 year' },
]

/** The organization's keys, revoked ones included (owners and admins only). */
export function useKeys(enabled = true) {
  const org = useOrg()
  return useQuery({
    queryKey: ['keys', org],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/keys', { params: { path: { org } } })),
    enabled,
    meta: { quiet: true },
  })
}

export function KeysSection() {
  const org = useOrg()
  const queryClient = useQueryClient()
  const toast = useToast()
  const keys = useKeys()
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['keys', org] })
  const revoke = useConfirmedMutation({
    mutationFn: (key: Key) => unwrap(appApi.DELETE('/app/api/orgs/{org}/keys/{id}', { params: { path: { org, id: key.id } } })),
    onSuccess: (_, key) => {
      toast.success(`The key “${key.name}” is revoked.`)
      refresh()
    },
  })

  return (
    <section className="stack" aria-labelledby="keys-title">
      <SectionHeader title="API keys" id="keys-title" />
      <p className="muted section-intro">
        Keys let scripts, AI clients and other services call <code>/api/v1</code> for this organization. Send one as <code>Authorization: Bearer al_…</code>.{' '}
        <Link href="/connect">Connect a client</Link> has the address and a snippet for each. To bring in Figma frames, use <Link href="~/import">Import</Link>: it needs no
        key.
      </p>
      <CreateKeyForm onCreated={refresh} />
      {keys.isError && <QueryError error={keys.error} onRetry={() => void keys.refetch()} what="the keys" />}
      {keys.data && keys.data.data.length === 0 && (
        <EmptyState title="No API keys yet">
          <p>Create a read key for a website or dashboard, or a write key for a script, the command line or an AI client.</p>
        </EmptyState>
      )}
      {keys.data && keys.data.data.length > 0 && <KeyTable keys={keys.data.data} onRevoke={revoke.ask} />}
      {keys.isPending && <p className="muted">Loading keys…</p>}

      <ConfirmDialog title="Revoke this key?" confirmLabel="Revoke key" {...revoke.dialog}>
        <p>
          Anything that uses <strong>{revoke.asked?.name}</strong> (<code className="mono">al_{revoke.asked?.prefix}_…</code>) stops working at once. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </section>
  )
}

/**
 * The form, and the dialog that shows the new key once: the key lives only in the mutation, reset when
 * the dialog closes (and in `onCreated`'s caller's state, for the Connect page's snippets; its dialog
 * needs no link to that page).
 */
export function CreateKeyForm({ onCreated, onConnectPage = false }: { onCreated(created: CreatedKey): void; onConnectPage?: boolean }) {
  const org = useOrg()
  const [name, setName] = useState('')
  const [scope, setScope] = useState<Scope>('assets:read')
  const [expiry, setExpiry] = useState('')
  const [limits, setLimits] = useState({ expensive: '', cheap: '' })
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        appApi.POST('/app/api/orgs/{org}/keys', {
          params: { path: { org } },
          body: {
            name: name.trim(),
            scope,
            ...(expiry ? { expires_in_days: Number(expiry) } : {}),
            ...(limits.expensive ? { limit_expensive: Number(limits.expensive) } : {}),
            ...(limits.cheap ? { limit_cheap: Number(limits.cheap) } : {}),
          },
        }),
      ),
    onSuccess: (created) => {
      setName('')
      setLimits({ expensive: '', cheap: '' })
      onCreated(created)
    },
    gcTime: 0,
    meta: { quiet: true },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    create.mutate()
  }
  const created = create.data
  return (
    <>
      <form className="panel create-form" onSubmit={submit} aria-labelledby="new-key-title">
        <h3 id="new-key-title">New key</h3>
        <div className="form-grid">
          <label className="field">
            <span>Name</span>
            <input required maxLength={100} placeholder="e.g. Website gallery" value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label className="field">
            <span>Scope</span>
            <select value={scope} onChange={(e) => setScope(e.target.value as Scope)} aria-describedby="scope-hint">
              <option value="assets:read">assets:read</option>
              <option value="assets:write">assets:write</option>
            </select>
          </label>
          <label className="field">
            <span>Expires</span>
            <select value={expiry} onChange={(e) => setExpiry(e.target.value)}>
              {EXPIRIES.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="primary" disabled={create.isPending || !name.trim()}>
            Create key
          </button>
        </div>
        <small id="scope-hint" className="hint">
          {SCOPES[scope]}
        </small>
        <details className="key-limits">
          <summary>Limits for a bulk import</summary>
          <div className="form-grid">
            {LIMITS.map(({ bucket, label }) => (
              <label className="field" key={bucket}>
                <span>{label}</span>
                <input type="number" min={1} max={10000} step={1} inputMode="numeric" placeholder="Default" aria-describedby="limits-hint" value={limits[bucket]} onChange={(e) => setLimits({ ...limits, [bucket]: e.target.value })} />
              </label>
            ))}
          </div>
          <small id="limits-hint" className="hint">
            Per minute, up to 10,000. Empty keeps the server’s limits (30 pushes and searches, 120 reads, unless your operator changed them).
          </small>
        </details>
        <FormError error={create.error} />
      </form>
      <Dialog title="API key created" open={created !== undefined} onClose={() => create.reset()}>
        {created && (
          <div className="stack">
            <p>
              The key <strong>{created.name}</strong> is ready.
            </p>
            <OnceSecret label="API key" value={created.token} onDone={() => create.reset()}>
              {' '}Only a hash is kept: if it is lost, revoke it and create another.
            </OnceSecret>
            {!onConnectPage && (
              <p>
                <Link href={`/connect?key=${created.id}`}>Connect a client with this key</Link>: the address and snippets for curl, the SDK, the command line, MCP and webhooks.
              </p>
            )}
          </div>
        )}
      </Dialog>
    </>
  )
}

function keyState(key: Key): { label: string; tone: string } | null {
  if (key.revoked_at) return { label: 'Revoked', tone: '' }
  if (key.expires_at && isPast(key.expires_at)) return { label: 'Expired', tone: 'bad' }
  return null
}

function KeyTable({ keys, onRevoke }: { keys: Key[]; onRevoke(key: Key): void }) {
  // Working keys first; revoked ones stay listed, greyed, for the record.
  const sorted = [...keys].sort((a, b) => Number(a.revoked_at !== null) - Number(b.revoked_at !== null))
  return (
    <Table columns={['Name', 'Key', 'Scope', 'Created', 'Last used', 'Expires', { label: 'Actions', hidden: true }]} caption="API keys" stacked>
      {sorted.map((key) => {
        const state = keyState(key)
        return (
          <tr key={key.id} className={key.revoked_at ? 'inactive' : undefined}>
            <td className="strong">
              {key.name} {state && <span className={`badge ${state.tone}`}>{state.label}</span>}
            </td>
            <td>
              <code className="mono">al_{key.prefix}_…</code>
            </td>
            <td>
              <span className="badge">{key.scope}</span>
            </td>
            <td className="nowrap">{formatDate(key.created_at)}</td>
            <td className="nowrap">{formatDate(key.last_used_at, 'Never')}</td>
            <td className="nowrap">{formatDate(key.expires_at, 'Never')}</td>
            <td className="actions-cell">
              {!key.revoked_at && (
                <button type="button" className="danger small" onClick={() => onRevoke(key)} aria-label={`Revoke ${key.name}`}>
                  Revoke
                </button>
              )}
            </td>
          </tr>
        )
      })}
    </Table>
  )
}
