import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { invalidateAssetData } from '../../api/cache'
import { AssetThumb, assetTitle } from '../../ui/AssetThumb'
import { ConfirmDialog } from '../../ui/Dialog'
import { EmptyState } from '../../ui/EmptyState'
import { FormError } from '../../ui/FormError'
import { formatBytes, formatDate, imageFormat, likeness, plural } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { useToast } from '../../ui/toast'
import { assetHref } from '../library/AssetGrid'
import { LoadMore } from '../library/LoadMore'
import { useTrashKeeps } from '../trash/api'
import { groupKey, membersOf, resolveGroup, useDuplicateGroups, useSetAside, type DuplicateGroup, type GroupAsset } from './api'
import '../library/library.css'
import './duplicates.css'

/** What the user chose to keep, in which group: the confirmation asks about it. */
interface Keeping {
  group: DuplicateGroup
  keep: GroupAsset
}

/**
 * The groups of near-duplicates to review, side by side: keep one of a group (the others go to the
 * trash, their tags and collections joining the kept one), or keep all of it, which sets the group aside
 * for this session.
 */
export function DuplicatesScreen() {
  const groups = useDuplicateGroups()
  const aside = useSetAside()
  const [keeping, setKeeping] = useState<Keeping | null>(null)
  const loaded = useMemo(() => groups.data?.pages.flatMap((page) => page.data) ?? [], [groups.data])
  const shown = loaded.filter((group) => !aside.keys.has(groupKey(group)))
  const setAsideCount = loaded.length - shown.length
  const total = groups.data?.pages[0]?.total
  const left = total === undefined ? undefined : total - setAsideCount

  return (
    <div className="duplicates">
      <header className="library-header">
        <h1>Duplicates</h1>
        <span className="count" aria-live="polite">
          {left === undefined || left <= 0 ? '' : plural(left, 'group')}
        </span>
      </header>
      <p className="duplicates-intro muted">
        Pictures that look nearly the same: the same image saved again, in another format or size. Keep one of a group and the others go to the
        trash, their tags and collections added to the one you keep.
      </p>
      {setAsideCount > 0 && (
        <p className="duplicates-aside muted" role="status">
          {plural(setAsideCount, 'group')} kept as {setAsideCount === 1 ? 'it is' : 'they are'} for this session.{' '}
          <button type="button" onClick={aside.showAgain}>
            Show again
          </button>
        </p>
      )}

      {groups.isError && !groups.isFetchNextPageError ? (
        <QueryError error={groups.error} onRetry={() => void groups.refetch()} what="the duplicates" />
      ) : groups.isPending ? (
        <p className="grid-end" aria-busy="true">
          Loading…
        </p>
      ) : shown.length === 0 && !groups.hasNextPage ? (
        <EmptyState title="No duplicates to review">
          <p>Each picture is compared with the library a moment after it is pushed; pictures that look nearly the same are grouped here.</p>
        </EmptyState>
      ) : (
        <>
          <ul className="duplicate-groups" aria-label="Duplicate groups">
            {shown.map((group) => (
              <li key={groupKey(group)}>
                <GroupCard group={group} onKeep={(keep) => setKeeping({ group, keep })} onKeepAll={() => aside.setAside(group)} />
              </li>
            ))}
          </ul>
          <LoadMore hasMore={groups.hasNextPage} loading={groups.isFetchingNextPage} failed={groups.isFetchNextPageError} onMore={() => void groups.fetchNextPage()} />
        </>
      )}
      <KeepDialog key={keeping ? groupKey(keeping.group) : 'closed'} keeping={keeping} onClose={() => setKeeping(null)} />
    </div>
  )
}

/** One group: its pictures side by side, each with what tells them apart and "Keep this"; then "Keep all". */
function GroupCard({ group, onKeep, onKeepAll }: { group: DuplicateGroup; onKeep(asset: GroupAsset): void; onKeepAll(): void }) {
  const headingId = `duplicates-group-${group.asset.id}`
  const count = membersOf(group).length
  return (
    <section className="panel duplicate-group" aria-labelledby={headingId} id={`group-${group.asset.id}`}>
      <h2 id={headingId}>
        {plural(count, 'picture')} like “{assetTitle(group.asset)}”
      </h2>
      <ul className="duplicate-members" aria-label="Pictures of this group">
        <li>
          <MemberCard asset={group.asset} likeness="Pushed first" onKeep={() => onKeep(group.asset)} />
        </li>
        {group.duplicates.map((near) => (
          <li key={near.asset.id}>
            <MemberCard asset={near.asset} likeness={likeness(near.distance)} onKeep={() => onKeep(near.asset)} />
          </li>
        ))}
      </ul>
      <div className="row end">
        <button type="button" onClick={onKeepAll} aria-describedby={headingId}>
          Keep all
        </button>
      </div>
    </section>
  )
}


function MemberCard({ asset, likeness, onKeep }: { asset: GroupAsset; likeness: string; onKeep(): void }) {
  const title = assetTitle(asset)
  const titleId = `duplicate-title-${asset.id}`
  return (
    <article className="asset-card duplicate-card" aria-labelledby={titleId}>
      <AssetThumb asset={asset} />
      <div className="asset-meta">
        <h3 className="asset-title" id={titleId} title={title}>
          <Link href={assetHref(asset.id)}>{title}</Link>
        </h3>
        <p className="duplicate-line">
          {imageFormat(asset.mime_type)} · {asset.width} × {asset.height} px · {formatBytes(asset.byte_size)}
        </p>
        <p className="duplicate-line">Pushed {formatDate(asset.created_at)}</p>
        <p className="duplicate-line duplicate-likeness">{likeness}</p>
        <button type="button" className="primary" onClick={onKeep} aria-describedby={titleId}>
          Keep this
        </button>
      </div>
    </article>
  )
}

const titles = (assets: readonly GroupAsset[]) => assets.map((asset) => `“${assetTitle(asset)}”`).join(', ')

/** Asks before keeping one: the others leave the library (to the trash, or for good when it keeps nothing). */
function KeepDialog({ keeping, onClose }: { keeping: Keeping | null; onClose(): void }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const keeps = useTrashKeeps()
  const [, navigate] = useLocation()
  const others = keeping ? membersOf(keeping.group).filter((asset) => asset.id !== keeping.keep.id) : []
  const title = keeping ? assetTitle(keeping.keep) : ''
  const resolve = useMutation({
    meta: { quiet: true },
    mutationFn: (target: Keeping) => resolveGroup(target.group, target.keep),
    onSuccess: ({ trashed }) => {
      const moved = plural(trashed.length, 'other')
      if (keeps === false) toast.success(`Kept “${title}”; deleted ${moved} forever.`)
      else toast.success(`Kept “${title}”; moved ${moved} to the trash.`, { label: 'Open trash', run: () => navigate('/trash') })
      onClose()
    },
    onSettled: () => invalidateAssetData(queryClient),
  })
  return (
    <ConfirmDialog
      title={`Keep “${title}”?`}
      open={keeping !== null}
      confirmLabel={keeps === false ? 'Keep it, delete the others' : 'Keep it, trash the others'}
      busy={resolve.isPending}
      onClose={onClose}
      onConfirm={() => keeping && resolve.mutate(keeping)}
    >
      <p>
        {titles(others)} {keeps === false ? 'will be deleted forever: this server keeps no trash.' : `will move to the trash, where ${others.length === 1 ? 'it' : 'they'} can be restored.`}
      </p>
      <p>Their tags and manual collections are added to “{title}”.</p>
      <FormError error={resolve.error} />
    </ConfirmDialog>
  )
}
