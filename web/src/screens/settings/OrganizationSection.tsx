import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Link } from 'wouter'
import { ASSETS_KEY, catalogKey } from '../../api/cache'
import { appApi, unwrap } from '../../api/client'
import { SESSION_QUERY, useOrg, useSession } from '../../session'
import { FormError } from '../../ui/FormError'
import { formatBytes, plural } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { useToast } from '../../ui/toast'
import { catalogQuery, organizationQuery, type Organization } from '../library/queries'
import { SectionHeader } from './parts'

type Registry = 'asset-types' | 'clients' | 'products'

const REGISTRIES: ReadonlyArray<{ registry: Registry; title: string; one: string; about: string }> = [
  { registry: 'asset-types', title: 'Asset types', one: 'asset type', about: 'An asset’s type must be one of these.' },
  { registry: 'clients', title: 'Clients', one: 'client', about: 'Registered names are offered when tagging assets; names used by assets show too.' },
  { registry: 'products', title: 'Products', one: 'product', about: 'Registered names are offered when tagging assets; names used by assets show too.' },
]

export function OrganizationSection() {
  const org = useOrg()
  const { canManage } = useSession()
  const organization = useQuery({ ...organizationQuery(org), meta: { quiet: true } })
  return (
    <section className="stack" aria-labelledby="organization-title">
      <SectionHeader title="Organization" id="organization-title" />
      {!canManage && <p className="note">These settings are read-only for you: an owner or admin manages them.</p>}
      {organization.isPending && <p className="muted">Loading…</p>}
      {organization.isError && <QueryError error={organization.error} onRetry={() => void organization.refetch()} what="the organization" />}
      {organization.data && (
        <>
          <NameForm organization={organization.data} canManage={canManage} />
          <AiSetting organization={organization.data} canManage={canManage} />
          <PlanUsage organization={organization.data} />
        </>
      )}
      <div className="registries">
        {REGISTRIES.map((r) => (
          <RegistryEditor key={r.registry} {...r} canManage={canManage} />
        ))}
      </div>
    </section>
  )
}

function useUpdateOrganization() {
  const org = useOrg()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: { name?: string; ai_enabled?: boolean }) => unwrap(appApi.PATCH('/app/api/orgs/{org}', { params: { path: { org } }, body })),
    onSuccess: (updated, body) => {
      queryClient.setQueryData(organizationQuery(org).queryKey, (old) => (old ? { ...old, ...updated } : old))
      // The top bar shows the organization's name, from the session.
      void queryClient.invalidateQueries({ queryKey: SESSION_QUERY })
      // Searches answered in the other mode (hybrid or text) and the similar assets are stale.
      if (body.ai_enabled !== undefined) void queryClient.invalidateQueries({ queryKey: [ASSETS_KEY] })
    },
  })
}

function NameForm({ organization, canManage }: { organization: Organization; canManage: boolean }) {
  const toast = useToast()
  const [name, setName] = useState(organization.name)
  const update = useUpdateOrganization()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    update.mutate({ name: name.trim() }, { onSuccess: () => toast.success('Organization renamed.') })
  }
  const changed = name.trim() !== organization.name && name.trim() !== ''
  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="org-name-title">
      <h3 id="org-name-title">Name</h3>
      <div className="form-grid">
        <label className="field">
          <span>Organization name</span>
          <input required maxLength={200} value={name} readOnly={!canManage} onChange={(e) => setName(e.target.value)} />
        </label>
        {canManage && (
          <button type="submit" className="primary" disabled={!changed || update.isPending}>
            Save name
          </button>
        )}
      </div>
      <small className="hint">
        Its slug in URLs and the <code>X-Organization</code> header stays <code>{organization.slug}</code>.
      </small>
    </form>
  )
}

/** Why this server cannot embed, and what its operator sets to change that. */
export const AI_UNAVAILABLE = {
  no_provider: (
    <>
      To turn it on, the server’s operator sets <code>EMBEDDING_BASE_URL</code> and <code>EMBEDDING_MODEL</code>, or <code>IMAGE_EMBEDDING_PROVIDER</code> (see
      “Semantic search” in the README).
    </>
  ),
  no_pgvector: (
    <>
      An embedding provider is set, but the database has no pgvector extension (see “Semantic search” in the README).
    </>
  ),
} as const

function AiSetting({ organization, canManage }: { organization: Organization; canManage: boolean }) {
  const toast = useToast()
  const update = useUpdateOrganization()
  const { available, unavailable_reason: reason } = organization.ai
  return (
    <div className="panel stack">
      <h3>AI</h3>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={available && organization.ai_enabled}
          aria-describedby="ai-state"
          disabled={!available || !canManage || update.isPending}
          onChange={(e) =>
            update.mutate({ ai_enabled: e.target.checked }, { onSuccess: (o) => toast.success(o.ai_enabled ? 'AI is on.' : 'AI is off: search is text only.') })
          }
        />
        <span>
          <strong>Semantic search and similar assets</strong>
          <small className="hint" id="ai-state">
            {!available ? 'Not configured on this server' : organization.ai_enabled ? 'On' : 'Off'}
          </small>
        </span>
      </label>
      {reason && <p className="note">{AI_UNAVAILABLE[reason]}</p>}
      <ul className="explain">
        <li>
          When on, each asset’s texts (title, tags, client, product, type) are sent to the server’s text embedding provider, if it has one, and a 224-pixel copy of each
          picture to its image embedding provider, if it has one; the vectors they answer are stored with the asset, and each search query is sent too.
        </li>
        <li>
          Search becomes hybrid: it finds assets by meaning as well as by words (with an image provider, by what the pictures show, even untitled ones), and each asset
          page lists similar assets.
        </li>
        <li>When off, nothing is sent: search matches words only (text mode) and similar assets stay empty.</li>
      </ul>
    </div>
  )
}

function PlanUsage({ organization }: { organization: Organization }) {
  const { usage } = organization
  return (
    <div className="panel stack">
      <h3>
        Plan <span className="badge">{organization.plan}</span>
      </h3>
      <UsageMeter label="Assets" used={usage.assets} limit={usage.max_assets} format={(n) => n.toLocaleString()} />
      <UsageMeter label="Storage" used={usage.bytes} limit={usage.max_bytes} format={formatBytes} />
      {usage.trashed_assets > 0 && (
        <small className="hint">
          Of these, {plural(usage.trashed_assets, 'asset is', 'assets are')} in the <Link href="~/trash">Trash</Link>, and their versions count in the storage:
          emptying it frees them.
        </small>
      )}
      <small className="hint">
        When a plan’s limit on assets or storage is reached, new pushes are refused with a problem that says which. Every version of an asset counts in the storage.
      </small>
    </div>
  )
}

function UsageMeter({ label, used, limit, format }: { label: string; used: number; limit: number | null; format(n: number): string }) {
  return (
    <div className="usage">
      <div className="row">
        <span>{label}</span>
        <span className="muted">{limit === null ? `${format(used)} (no limit)` : `${format(used)} of ${format(limit)}`}</span>
      </div>
      {limit !== null && <meter aria-label={`${label} used`} min={0} max={limit} value={Math.min(used, limit)} high={limit * 0.9} />}
    </div>
  )
}

function RegistryEditor({ registry, title, one, about, canManage }: { registry: Registry; title: string; one: string; about: string; canManage: boolean }) {
  const org = useOrg()
  const queryClient = useQueryClient()
  const [name, setName] = useState('')
  // The pickers' own entry: a name added or removed here shows in the library, upload and detail at once.
  const path = `/api/v1/${registry}` as const
  const entries = useQuery({ ...catalogQuery(path), meta: { quiet: true } })
  const refresh = () => void queryClient.invalidateQueries({ queryKey: catalogKey(path) })
  const add = useMutation({
    mutationFn: (value: string) => unwrap(appApi.POST(`/app/api/orgs/{org}/${registry}`, { params: { path: { org } }, body: { name: value } })),
    onSuccess: () => {
      setName('')
      refresh()
    },
    meta: { quiet: true },
  })
  const remove = useMutation({
    mutationFn: (value: string) => unwrap(appApi.DELETE(`/app/api/orgs/{org}/${registry}/{name}`, { params: { path: { org, name: value } } })),
    onSuccess: refresh,
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (name.trim()) add.mutate(name.trim())
  }
  const list = entries.data?.data ?? []
  const headingId = `registry-${registry}`
  return (
    <section className="panel stack" aria-labelledby={headingId}>
      <div>
        <h3 id={headingId}>{title}</h3>
        <small className="hint">{about}</small>
      </div>
      {entries.isError && <QueryError error={entries.error} onRetry={() => void entries.refetch()} what={title.toLowerCase()} />}
      {entries.data && list.length === 0 && <p className="muted">None yet.</p>}
      {list.length > 0 && (
        <ul className="registry-list" aria-label={title}>
          {list.map((entry) => (
            <li key={entry.name}>
              <span className="registry-name">{entry.name}</span>
              <span className="muted small-text">
                {plural(entry.asset_count, 'asset')}
                {!entry.registered && ' · not registered'}
              </span>
              {canManage && entry.registered && (
                <button type="button" className="icon-button" aria-label={`Remove ${one} ${entry.name}`} disabled={remove.isPending} onClick={() => remove.mutate(entry.name)}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {entries.data && entries.data.total > list.length && <small className="hint">And {entries.data.total - list.length} more.</small>}
      {canManage && (
        <form className="row registry-add" onSubmit={submit}>
          <label className="visually-hidden" htmlFor={`${headingId}-new`}>
            New {one}
          </label>
          <input id={`${headingId}-new`} placeholder={`New ${one}`} maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          <button type="submit" disabled={!name.trim() || add.isPending}>
            Add
          </button>
        </form>
      )}
      <FormError error={add.error} />
    </section>
  )
}
