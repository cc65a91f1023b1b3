import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { ASSETS_KEY } from '../../api/cache'
import { unwrap, v1 } from '../../api/client'
import { messageOf } from '../../api/problem'
import { AssetThumb, assetTitle } from '../../ui/AssetThumb'
import { assetHref } from './AssetGrid'

/** Assets near this one by meaning; a quiet note when the server cannot tell (AI off, no embedding). */
export function SimilarAssets({ id }: { id: string }) {
  const similar = useQuery({
    queryKey: [ASSETS_KEY, 'similar', id],
    queryFn: () => unwrap(v1.GET('/api/v1/assets/{id}/similar', { params: { path: { id }, query: { limit: 12 } } })),
    meta: { quiet: true },
    retry: false,
  })
  return (
    <section className="similar" aria-labelledby="similar-title">
      <h2 className="section-title" id="similar-title">
        Similar assets
      </h2>
      {similar.isPending ? (
        <p className="muted">Looking for similar assets…</p>
      ) : similar.isError ? (
        <p className="muted">Similar assets are not available: {messageOf(similar.error)}</p>
      ) : similar.data.data.length === 0 ? (
        <p className="muted">None yet. Similarity needs AI on for the organization and an embedding for this asset.</p>
      ) : (
        <ul className="similar-grid">
          {similar.data.data.map((hit) => (
            <li key={hit.id}>
              <Link href={assetHref(hit.id)} title={`${assetTitle(hit)} (${Math.round(hit.semantic_score * 100)}% similar)`}>
                <AssetThumb asset={hit} />
                <span>{assetTitle(hit)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
