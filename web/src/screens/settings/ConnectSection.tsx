import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { Link, useSearchParams } from 'wouter'
import { useOrg, useSession } from '../../session'
import { CopyButton } from '../../ui/CopyButton'
import { QueryError } from '../../ui/QueryError'
import { organizationQuery } from '../library/queries'
import { connectSnippets, KEY_VARIABLE, type Snippet, type SnippetKey } from './connect'
import { CreateKeyForm, useKeys, type CreatedKey, type Key } from './KeysSection'
import { isPast, SectionHeader } from './parts'

const usable = (key: Key) => !key.revoked_at && !(key.expires_at && isPast(key.expires_at))

/**
 * How to connect each kind of client: the server's address, a key (picked by name, or created here and
 * shown once), and a snippet to copy for curl, the SDK, the command line, MCP clients and a webhook
 * receiver. A picked key's secret is never shown again, so the snippets hold a placeholder with its prefix.
 */
export function ConnectSection() {
  const organization = useQuery({ ...organizationQuery(useOrg()), meta: { quiet: true } })
  const baseUrl = organization.data?.public_base_url
  return (
    <section className="stack" aria-labelledby="connect-title">
      <SectionHeader title="Connect a client" id="connect-title" />
      <p className="muted section-intro">
        Scripts, the SDK, the command line and AI clients all call this server with an API key. Webhooks go the other way: the server calls yours.
      </p>
      {organization.isError && <QueryError error={organization.error} onRetry={() => void organization.refetch()} what="the server’s address" />}
      {baseUrl && <Connect baseUrl={baseUrl} />}
    </section>
  )
}

function Connect({ baseUrl }: { baseUrl: string }) {
  const { canManage } = useSession()
  const [created, setCreated] = useState<CreatedKey | null>(null)
  const [search] = useSearchParams()
  const keys = useKeys(canManage)
  const live = (keys.data?.data ?? []).filter(usable)
  const [picked, setPicked] = useState<string | null>(search.get('key'))
  const queryClient = useQueryClient()
  const org = useOrg()
  const chosen = created ?? live.find((key) => key.id === picked) ?? live[0] ?? null
  const snippetKey: SnippetKey = created ? { secret: created.token } : chosen ? { prefix: `${chosen.prefix}_` } : null
  const onCreated = (key: CreatedKey) => {
    setCreated(key)
    void queryClient.invalidateQueries({ queryKey: ['keys', org] })
  }
  const pick = (id: string) => {
    setCreated(null)
    setPicked(id)
  }
  return (
    <>
      <dl className="connect-facts">
        <dt>Server address</dt>
        <dd>
          <code className="mono break">{baseUrl}</code> <CopyButton text={baseUrl} label="Copy the address" />
        </dd>
        <dt>API</dt>
        <dd>
          <code className="mono break">{baseUrl}/api/v1</code> (<a href="/api/v1/docs">reference</a>)
        </dd>
        <dt>MCP</dt>
        <dd>
          <code className="mono break">{baseUrl}/mcp</code>
        </dd>
      </dl>
      {canManage ? (
        <KeyPicker keys={live} chosen={chosen} created={created} onPick={pick} onCreated={onCreated} />
      ) : (
        <p className="hint">
          An owner or admin of the organization creates API keys: ask one for a key, then put it where the snippets say <code>al_…</code> or <code>${KEY_VARIABLE}</code>.
        </p>
      )}
      <GetTheClient />
      {connectSnippets(baseUrl, snippetKey).map((group) => (
        <section key={group.id} className="stack connect-group" aria-labelledby={`connect-${group.id}`}>
          <h3 id={`connect-${group.id}`}>{group.title}</h3>
          {group.id === 'webhooks' && (
            <p className="muted">
              Add the receiver’s public https address under <Link href="/webhooks">Webhooks</Link>
              {canManage ? '' : ' (owners and admins)'}; its signing secret, shown once there, goes in <code>ASSET_LIBRARY_WEBHOOK_SECRET</code>. No API key is involved.
            </p>
          )}
          {group.snippets.map((snippet) => (
            <SnippetBox key={snippet.id} snippet={snippet} />
          ))}
        </section>
      ))}
    </>
  )
}

function KeyPicker(props: { keys: Key[]; chosen: Key | CreatedKey | null; created: CreatedKey | null; onPick(id: string): void; onCreated(key: CreatedKey): void }) {
  const { keys, chosen, created, onPick, onCreated } = props
  const id = useId()
  return (
    <div className="stack">
      {keys.length > 0 && (
        <div className="field connect-key">
          <label htmlFor={id}>Key for the snippets</label>
          <select id={id} value={chosen?.id ?? ''} onChange={(e) => onPick(e.target.value)} aria-describedby={`${id}-hint`}>
            {keys.map((key) => (
              <option key={key.id} value={key.id}>
                {key.name} (al_{key.prefix}_…, {key.scope})
              </option>
            ))}
          </select>
          <small id={`${id}-hint`} className="hint">
            {created
              ? `The snippets hold the new key “${created.name}”: copy them now, it is not shown again.`
              : chosen
                ? `Its secret is not shown again: put the whole key where the snippets say al_${chosen.prefix}_… or $${KEY_VARIABLE}.`
                : ''}
          </small>
        </div>
      )}
      {keys.length === 0 && <p className="hint">The organization has no API key yet: create one below, and the snippets use it.</p>}
      <details className="connect-create" open={keys.length === 0}>
        <summary>Create a key</summary>
        <CreateKeyForm onCreated={onCreated} onConnectPage />
      </details>
    </div>
  )
}

/** Where the SDK and the command line come from: the client package, packed from the server's repository. */
function GetTheClient() {
  return (
    <details className="connect-get">
      <summary>Where to get the SDK and the command line</summary>
      <p>
        Both are the package <code>@asset-library/client</code> (Node 20+), which is not on the npm registry: pack it in a checkout of Asset Library, then install the file
        where it runs.
      </p>
      <SnippetBox
        snippet={{
          id: 'install',
          label: 'Install',
          where: 'Terminal',
          text: [
            'npm ci && npm pack -w @asset-library/client     # in the Asset Library repository: writes asset-library-client-0.1.0.tgz',
            'npm install -g ./asset-library-client-0.1.0.tgz  # the command line (asset-library-client), and MCP over stdio',
            'npm install ./asset-library-client-0.1.0.tgz     # or, in your project, the SDK',
          ].join('\n'),
        }}
      />
      <p className="muted">
        <code>npx --no-install</code> runs the installed command and never a registry package of that name. <code>asset-library-client --help</code> lists its commands.
      </p>
    </details>
  )
}

function SnippetBox({ snippet }: { snippet: Snippet }) {
  const label = `${snippet.label} snippet`
  return (
    <div className="snippet-box">
      <div className="row">
        <strong>{snippet.label}</strong>
        <span className="muted">{snippet.where}</span>
        <span className="push-end">
          <CopyButton text={snippet.text} label={`Copy the ${snippet.label} snippet`} />
        </span>
      </div>
      <pre className="code connect-snippet" tabIndex={0} role="region" aria-label={label}>
        {snippet.text}
      </pre>
    </div>
  )
}
