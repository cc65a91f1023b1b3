import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { Link, useLocation } from 'wouter'
import { appApi, unwrap, v1 } from '../../api/client'
import { useOrg, useSession } from '../../session'
import { FormError } from '../../ui/FormError'
import { plural } from '../../ui/format'
import { IMPORTS_KEY, useFigmaConnection, type FigmaConnection } from './api'
import { ImportHistory } from './ImportHistory'
import { ImportOptions, initialOptions, optionFields } from './ImportOptions'
import { OutlinePicker } from './OutlinePicker'
import { pickedThumbnails } from './results'
import { frameIds, NODE_IDS_MAX, pickableNodes, selectionOf, type Outline } from './selection'
import './import.css'

/**
 * /import: paste a Figma link, pick its frames and components, import them; the imports so far below.
 * A token typed here (when the organization stored none) lives in this screen's state only.
 */
export function ImportScreen() {
  const org = useOrg()
  const connection = useFigmaConnection(org)
  const [token, setToken] = useState('')
  const connected = connection.data?.connected ?? true
  const oneTimeToken = connected ? undefined : token.trim() || undefined
  return (
    <div className="import-page stack">
      <header className="page-header">
        <h1>Import from Figma</h1>
        <p className="muted import-lede">Paste a link to a Figma file, pick its frames and components, and each becomes an asset. Import it again to sync: changed frames get a new version.</p>
      </header>
      {connection.data && !connection.data.connected && <NotConnected token={token} onToken={setToken} />}
      {connection.data?.connected && <ConnectedAs connection={connection.data} />}
      <ImportFlow token={oneTimeToken} />
      <ImportHistory token={oneTimeToken} needsToken={!connected} />
    </div>
  )
}

function ConnectedAs({ connection }: { connection: FigmaConnection }) {
  const user = connection.figma_user
  return <p className="muted import-connection">Figma is connected{user ? ` with the token of ${user.handle}${user.email ? ` (${user.email})` : ''}` : ''}.</p>
}

function NotConnected({ token, onToken }: { token: string; onToken(next: string): void }) {
  const { canManage } = useSession()
  const hint = useId()
  return (
    <section className="panel stack import-token" aria-label="Figma token">
      <p>
        <strong>Figma is not connected for this organization.</strong>{' '}
        {canManage ? (
          <>
            <Link href="/settings/integrations">Connect Figma in Settings</Link>, or give a personal access token for this import only.
          </>
        ) : (
          'Ask an owner or admin to connect it in Settings, or give a personal access token for this import only.'
        )}
      </p>
      <div className="field">
        <label htmlFor={`${hint}-token`}>Figma token for this import</label>
        <input id={`${hint}-token`} type="password" value={token} onChange={(e) => onToken(e.target.value)} autoComplete="off" spellCheck={false} placeholder="figd_…" aria-describedby={hint} />
        <small id={hint}>Made in Figma under Settings › Security › Personal access tokens. It is not kept in this browser, and the server erases it when the import ends.</small>
      </div>
    </section>
  )
}

/** The link, then the file's outline to pick from and the options, then the import. */
function ImportFlow({ token }: { token: string | undefined }) {
  const org = useOrg()
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  const [link, setLink] = useState('')
  const [picked, setPicked] = useState<Set<string>>(new Set())
  const [options, setOptions] = useState(initialOptions)
  const outline = useMutation({
    mutationFn: (fileUrl: string) =>
      unwrap(
        appApi.GET('/app/api/orgs/{org}/integrations/figma/outline', {
          params: { path: { org }, query: { file_url: fileUrl }, header: token ? { 'x-figma-token': token } : {} },
        }),
      ),
    onSuccess: (loaded) => setPicked(new Set(frameIds(loaded))),
    gcTime: 0,
    meta: { quiet: true },
  })
  const create = useMutation({
    mutationFn: async ({ loaded, fileUrl }: { loaded: Outline; fileUrl: string }) => {
      const selection = selectionOf(loaded, picked)
      if (!selection) throw new Error('Pick at least one frame or component.')
      const accepted = await unwrap(
        v1.POST('/api/v1/imports', {
          body: { source: 'figma', file_url: fileUrl, ...selection, ...optionFields(options), created_by_ai: false, ...(token && { figma_token: token }) },
        }),
      )
      const nodes = pickableNodes(loaded)
      pickedThumbnails.remember(accepted.import_id, [...nodes.values()].filter((node) => picked.has(node.id)))
      return accepted
    },
    onSuccess: (accepted) => {
      void queryClient.invalidateQueries({ queryKey: [IMPORTS_KEY] })
      navigate(`/import/${accepted.import_id}`)
    },
    gcTime: 0,
    meta: { quiet: true },
  })

  const load = (event: FormEvent) => {
    event.preventDefault()
    if (link.trim()) outline.mutate(link.trim())
  }
  const loaded = outline.data
  const tooMany = loaded !== undefined && selectionOf(loaded, picked)?.select === 'nodes' && picked.size > NODE_IDS_MAX
  return (
    <>
      <form className="panel row import-source" onSubmit={load} aria-label="Figma file">
        <label className="field import-link">
          <span>Figma link</span>
          <input type="url" required value={link} onChange={(e) => setLink(e.target.value)} placeholder="https://www.figma.com/design/…" autoComplete="off" spellCheck={false} />
        </label>
        <button type="submit" className="primary" disabled={outline.isPending || !link.trim()}>
          {outline.isPending ? 'Loading…' : 'Load file'}
        </button>
        <FormError error={outline.error} />
      </form>
      {outline.isPending && (
        <p className="muted" aria-busy="true">
          Reading the file from Figma…
        </p>
      )}
      {loaded && (
        <div className="import-layout">
          <section className="stack import-main" aria-labelledby="outline-title">
            <h2 id="outline-title" className="import-file-title">
              {loaded.file_name} <span className="muted small-text">{plural(loaded.pages.length, 'page')}</span>
            </h2>
            <OutlinePicker outline={loaded} picked={picked} onChange={setPicked} />
          </section>
          <form
            className="panel stack import-side"
            aria-label="Import options"
            onSubmit={(event) => {
              event.preventDefault()
              create.mutate({ loaded, fileUrl: outline.variables ?? link.trim() })
            }}
          >
            <h2>Import</h2>
            <ImportOptions value={options} onChange={setOptions} />
            {tooMany && <p className="form-error">Pick at most {NODE_IDS_MAX.toLocaleString()} nodes, or all the frames or all the components.</p>}
            <button type="submit" className="primary" disabled={picked.size === 0 || tooMany || create.isPending}>
              {create.isPending ? 'Starting…' : `Import ${plural(picked.size, 'node')}`}
            </button>
            <FormError error={create.error} />
          </form>
        </div>
      )}
    </>
  )
}
