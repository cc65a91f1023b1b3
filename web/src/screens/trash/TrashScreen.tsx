import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { useLocation } from 'wouter'
import { invalidateAssetData } from '../../api/cache'
import { messageOf } from '../../api/problem'
import { useSession } from '../../session'
import { AssetThumb, assetTitle } from '../../ui/AssetThumb'
import { ConfirmDialog } from '../../ui/Dialog'
import { EmptyState } from '../../ui/EmptyState'
import { FormError } from '../../ui/FormError'
import { actorText, DAY_MS, daysUntil, formatDate, formatRelative, plural } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { useToast } from '../../ui/toast'
import { assetHref } from '../library/AssetGrid'
import { LoadMore } from '../library/LoadMore'
import { drainTrash, purgeEach, restoreEach, useTrash, useTrashKeeps, type TrashedAsset } from './api'
import '../library/library.css'
import './trash.css'

/** Purges this close are flagged, as Google Photos marks the last days. */
const SOON_DAYS = 3
const MANAGERS_ONLY = 'Only owners and admins can delete assets forever or empty the trash.'

/**
 * The trash: what was deleted, by whom and when, and when it goes for good. Anyone restores; owners and
 * admins delete forever, one asset or all of them.
 */
export function TrashScreen() {
  const { canManage } = useSession()
  const trash = useTrash()
  const keeps = useTrashKeeps()
  const items = useMemo(() => trash.data?.pages.flatMap((page) => page.data) ?? [], [trash.data])
  const total = trash.data?.pages[0]?.total
  const [acting, setActing] = useState<keyof typeof ALL | null>(null)
  const [purging, setPurging] = useState<TrashedAsset | null>(null)
  const first = items[0]
  const retentionDays = first ? Math.round((Date.parse(first.purge_at) - Date.parse(first.deleted_at)) / DAY_MS) : undefined

  return (
    <div className="trash">
      <header className="library-header">
        <h1>Trash</h1>
        <span className="count" aria-live="polite">
          {total === undefined || total === 0 ? '' : plural(total, 'asset')}
        </span>
        {total !== undefined && total > 0 && (
          <div className="trash-bulk">
            <button type="button" onClick={() => setActing('restore')}>
              Restore all
            </button>
            <button type="button" className="danger" disabled={!canManage} onClick={() => setActing('purge')} aria-describedby={canManage ? undefined : 'trash-managers-only'}>
              Empty trash
            </button>
          </div>
        )}
      </header>
      {total !== undefined && total > 0 && (
        <p className="trash-intro muted">
          {retentionDays === undefined
            ? 'Deleted assets wait here before they are deleted forever.'
            : `Deleted assets stay here for ${plural(retentionDays, 'day')}, then are deleted forever.`}{' '}
          Restoring one brings it back as it was: its tags, collections and versions.
          {keeps === false && ' This server now keeps no trash: what is deleted from now on is deleted forever at once.'}
          {!canManage && (
            <>
              {' '}
              <span id="trash-managers-only">{MANAGERS_ONLY}</span>
            </>
          )}
        </p>
      )}

      {trash.isError && !trash.isFetchNextPageError ? (
        <QueryError error={trash.error} onRetry={() => void trash.refetch()} what="the trash" />
      ) : trash.isPending ? (
        <p className="grid-end" aria-busy="true">
          Loading…
        </p>
      ) : items.length === 0 ? (
        <EmptyState title="The trash is empty">
          <p>
            {keeps !== false
              ? 'Assets you delete wait here before they are deleted forever, so that they can be restored.'
              : 'This server keeps no trash: assets you delete are deleted forever at once, after you confirm.'}
          </p>
        </EmptyState>
      ) : (
        <>
          <ul className="asset-grid trash-grid" aria-label="Trashed assets">
            {items.map((asset) => (
              <li key={asset.id}>
                <TrashCard asset={asset} canManage={canManage} onPurge={() => setPurging(asset)} />
              </li>
            ))}
          </ul>
          <LoadMore hasMore={trash.hasNextPage} loading={trash.isFetchingNextPage} failed={trash.isFetchNextPageError} onMore={() => void trash.fetchNextPage()} />
        </>
      )}
      <PurgeDialog asset={purging} onClose={() => setPurging(null)} />
      <AllDialog key={acting ?? 'closed'} action={acting} total={total ?? 0} onClose={() => setActing(null)} />
    </div>
  )
}

function TrashCard({ asset, canManage, onPurge }: { asset: TrashedAsset; canManage: boolean; onPurge(): void }) {
  const { user } = useSession()
  const toast = useToast()
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  const title = assetTitle(asset)
  const titleId = `trash-title-${asset.id}`
  const who = actorText(asset.deleted_by, user)
  const days = daysUntil(asset.purge_at)
  const restore = useMutation({
    mutationFn: async () => {
      const { failures } = await restoreEach([asset.id])
      if (failures.length > 0) throw failures[0]
    },
    onSuccess: () => toast.success(`Restored “${title}”.`, { label: 'Open', run: () => navigate(assetHref(asset.id)) }),
    onSettled: () => invalidateAssetData(queryClient),
  })
  return (
    <article className="asset-card trash-card" aria-labelledby={titleId}>
      <AssetThumb asset={asset} />
      <div className="asset-meta">
        <h2 className="asset-title" id={titleId} title={title}>
          {title}
        </h2>
        <p className="trash-line" title={formatDate(asset.deleted_at)}>
          Deleted {formatRelative(asset.deleted_at)}
          {who && ` by ${who}`}
        </p>
        <p className={`trash-line${days <= SOON_DAYS ? ' soon' : ''}`} title={formatDate(asset.purge_at)}>
          {days === 0 ? 'Deleted forever today' : `Deleted forever in ${plural(days, 'day')}`}
        </p>
        <div className="trash-actions">
          <button type="button" onClick={() => restore.mutate()} disabled={restore.isPending} aria-describedby={titleId}>
            {restore.isPending ? 'Restoring…' : 'Restore'}
          </button>
          {canManage && (
            <button type="button" className="danger" onClick={onPurge} aria-describedby={titleId}>
              Delete forever
            </button>
          )}
        </div>
      </div>
    </article>
  )
}

function PurgeDialog({ asset, onClose }: { asset: TrashedAsset | null; onClose(): void }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const title = asset ? assetTitle(asset) : ''
  const purge = useMutation({
    meta: { quiet: true },
    mutationFn: async (target: TrashedAsset) => {
      const { failures } = await purgeEach([target.id])
      if (failures.length > 0) throw failures[0]
    },
    onSuccess: () => {
      toast.success(`Deleted “${title}” forever.`)
      onClose()
    },
    onSettled: () => invalidateAssetData(queryClient),
  })
  return (
    <ConfirmDialog
      title="Delete forever?"
      open={asset !== null}
      confirmLabel="Delete forever"
      busy={purge.isPending}
      onClose={onClose}
      onConfirm={() => asset && purge.mutate(asset)}
    >
      <p>“{title}” is deleted now, with its file and every version of it. This cannot be undone.</p>
      <FormError error={purge.error} />
    </ConfirmDialog>
  )
}

/** What "Empty trash" and "Restore all" do to every asset in the trash, and how each says so. */
const ALL = {
  purge: {
    each: purgeEach,
    title: 'Empty the trash?',
    confirm: 'Empty trash',
    tone: 'danger',
    what: (total: number) =>
      `${total === 1 ? 'The asset' : `All ${plural(total, 'asset')}`} in the trash ${total === 1 ? 'is' : 'are'} deleted now, with their files and versions. This cannot be undone.`,
    done: (count: number) => `Emptied the trash: ${plural(count, 'asset')} deleted forever.`,
    stopped: (count: number) => `Deleted ${plural(count, 'asset')} forever, then:`,
  },
  restore: {
    each: restoreEach,
    title: 'Restore everything?',
    confirm: 'Restore all',
    tone: 'primary',
    what: (total: number) => `${total === 1 ? 'The asset' : `All ${plural(total, 'asset')}`} in the trash go${total === 1 ? 'es' : ''} back to the library as they were.`,
    done: (count: number) => `Restored ${plural(count, 'asset')}.`,
    stopped: (count: number) => `Restored ${plural(count, 'asset')}, then:`,
  },
} as const

/** Restores or purges everything in the trash after confirming, with its progress; stops at a refusal and says how far it got. */
function AllDialog({ action, total, onClose }: { action: keyof typeof ALL | null; total: number; onClose(): void }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const [count, setCount] = useState(0)
  const all = action ? ALL[action] : ALL.purge
  const run = useMutation({
    meta: { quiet: true },
    mutationFn: async () => {
      setCount(0)
      const outcome = await drainTrash(all.each, setCount)
      if (outcome.failure !== undefined) throw new Error(`${all.stopped(outcome.count)} ${messageOf(outcome.failure)}`)
      return outcome.count
    },
    onSuccess: (done) => {
      toast.success(all.done(done))
      onClose()
    },
    onSettled: () => invalidateAssetData(queryClient),
  })
  return (
    <ConfirmDialog title={all.title} open={action !== null} confirmLabel={all.confirm} tone={all.tone} busy={run.isPending} onClose={onClose} onConfirm={() => run.mutate()}>
      <p>{all.what(total)}</p>
      {run.isPending && (
        <p role="status">
          <progress max={total} value={count} aria-label="Done so far" /> {count.toLocaleString()} of {total.toLocaleString()}
        </p>
      )}
      <FormError error={run.error} />
    </ConfirmDialog>
  )
}
