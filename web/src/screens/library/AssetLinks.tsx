import { useMutation, useQueries } from '@tanstack/react-query'
import { Link } from 'wouter'
import { unwrap, v1 } from '../../api/client'
import { COLLECTIONS_KEY } from '../../api/cache'
import { useSession } from '../../session'
import { assetTitle } from '../../ui/AssetThumb'
import { CopyButton } from '../../ui/CopyButton'
import { FormError } from '../../ui/FormError'
import { formatDate } from '../../ui/format'
import { RefusedButton } from '../../ui/RefusedButton'
import { useLiveShareLink, useRefreshCollections } from '../collections/api'
import { SHARE_REFUSED, ShareLink } from '../collections/SharePanel'
import type { Asset } from './queries'

const HOUR_MS = 3_600_000

/** How long a signed link still works, as people say it: "24 hours", "1 hour", "less than an hour". */
export function linkLifetime(expiresAt: string, now = Date.now()): string {
  const hours = Math.floor((new Date(expiresAt).getTime() - now) / HOUR_MS)
  if (hours < 1) return 'less than an hour'
  return hours === 1 ? '1 hour' : `${hours} hours`
}

/**
 * Links to the asset: its original's signed URL, which works for a day, and a lasting one. A lasting link
 * is the public link of a shared collection holding only this asset: the panel offers it if one exists
 * (owners and admins see it), or to make one (owners and admins), or says none exists.
 */
export function AssetLinks({ asset }: { asset: Asset }) {
  return (
    <div className="stack asset-links">
      <div className="row">
        <CopyButton text={asset.original_url} label="Copy original URL" />
        <span className="hint" id="original-url-lifetime">
          This link works for {linkLifetime(asset.thumbnail_expires_at)} (until {formatDate(asset.thumbnail_expires_at)}).
        </span>
      </div>
      <LastingLink asset={asset} />
    </div>
  )
}

function LastingLink({ asset }: { asset: Asset }) {
  const { canManage } = useSession()
  const holders = useQueries({
    queries: asset.collections.map((collection) => ({
      queryKey: [COLLECTIONS_KEY, 'one-asset', collection.id],
      queryFn: () => unwrap(v1.GET('/api/v1/collections/{id}', { params: { path: { id: collection.id }, query: { limit: 1 } } })),
      meta: { quiet: true },
    })),
  })
  const shared = holders.find((holder) => holder.data?.shared && holder.data.asset_count === 1)?.data
  if (holders.some((holder) => holder.isPending)) return <p className="hint">Looking for a lasting link…</p>
  if (shared) {
    if (!canManage) return <p className="hint">A lasting link exists: the shared collection “{shared.name}” holds only this asset. Owners and admins can copy its link.</p>
    return <SharedHolder id={shared.id} name={shared.name} />
  }
  if (!canManage) {
    return (
      <div className="row">
        <span className="hint">No lasting link exists.</span>
        <RefusedButton label="Make a lasting link" reason={SHARE_REFUSED} />
      </div>
    )
  }
  return <MakeLastingLink asset={asset} />
}

function SharedHolder({ id, name }: { id: string; name: string }) {
  const live = useLiveShareLink(id, true)
  if (live.isPending) return <p className="hint">Loading the lasting link…</p>
  return (
    <div className="stack">
      <p className="hint">
        A lasting link, through the shared collection <Link href={`/collections/${id}`}>“{name}”</Link>, which holds only this asset.
      </p>
      {live.data?.share_url ? (
        <ShareLink link={live.data.share_url} label="Lasting link" />
      ) : (
        <p className="hint">Its link was made before links were kept. Make a new link on the collection to see it here.</p>
      )}
    </div>
  )
}

/** Makes a collection holding only this asset, and shares it: its link lasts until it is unshared. */
function MakeLastingLink({ asset }: { asset: Asset }) {
  const refresh = useRefreshCollections()
  const make = useMutation({
    meta: { quiet: true },
    mutationFn: async () => {
      const name = `Link: ${assetTitle(asset)} (${asset.id.slice(-6)})`
      const collection = await unwrap(v1.POST('/api/v1/collections', { body: { name, description: 'Holds one asset, for a lasting link to it.' } }))
      await unwrap(v1.POST('/api/v1/collections/{id}/assets', { params: { path: { id: collection.id } }, body: { asset_id: asset.id } }))
      return unwrap(v1.POST('/api/v1/collections/{id}/share', { params: { path: { id: collection.id } } }))
    },
    onSuccess: () => refresh(),
  })
  return (
    <div className="stack">
      <div className="row">
        <span className="hint">No lasting link exists.</span>
        <button type="button" onClick={() => make.mutate()} disabled={make.isPending}>
          {make.isPending ? 'Making…' : 'Make a lasting link'}
        </button>
      </div>
      {make.data && <ShareLink link={make.data.share_url} label="Lasting link" focus />}
      <FormError error={make.error} />
    </div>
  )
}
