import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { ASSETS_KEY } from '../../api/cache'
import { unwrap, v1 } from '../../api/client'
import { messageOf } from '../../api/problem'
import { useOrg, useSession } from '../../session'
import { AssetThumb, assetTitle } from '../../ui/AssetThumb'
import { likeness, plural } from '../../ui/format'
import { assetHref } from './AssetGrid'
import { organizationQuery, type Organization } from './queries'

/** Assets near this one by meaning; when there are none, which of the reasons holds. */
export function SimilarAssets({ id }: { id: string }) {
  const similar = useQuery({
    queryKey: [ASSETS_KEY, 'similar', id],
    queryFn: () => unwrap(v1.GET('/api/v1/assets/{id}/similar', { params: { path: { id }, query: { limit: 12 } } })),
    meta: { quiet: true },
    retry: false,
  })
  const organization = useQuery({ ...organizationQuery(useOrg()), meta: { quiet: true } })
  const { canManage } = useSession()
  return (
    <section className="similar" aria-labelledby="similar-title">
      <h2 className="section-title" id="similar-title">
        Similar assets
      </h2>
      {similar.isPending ? (
        <p className="muted">Looking for similar assets…</p>
      ) : similar.isError ? (
        <p className="muted">{canManage ? `Similar assets are not available: ${messageOf(similar.error)}` : NOT_AVAILABLE}</p>
      ) : similar.data.data.length === 0 ? (
        <p className="muted">{organization.data ? whyNone(organization.data, canManage) : 'None yet.'}</p>
      ) : (
        <ul className="similar-grid">
          {similar.data.data.map((hit) => (
            <li key={hit.id}>
              <Link href={assetHref(hit.id)} title={'semantic_score' in hit ? `${assetTitle(hit)} (${Math.round(hit.semantic_score * 100)}% similar)` : assetTitle(hit)}>
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

/**
 * Assets whose picture looks like this one (`similar?by=appearance`: the perceptual hashes, no AI), closest
 * first with their distance: shown whatever the AI settings, so a server without an embedding provider
 * still finds the same picture in another size or format.
 */
export function LookalikeAssets({ id, hashed }: { id: string; hashed: boolean }) {
  const lookalikes = useQuery({
    queryKey: [ASSETS_KEY, 'lookalikes', id, hashed],
    queryFn: () => unwrap(v1.GET('/api/v1/assets/{id}/similar', { params: { path: { id }, query: { by: 'appearance', limit: 12 } } })),
    enabled: hashed,
    meta: { quiet: true },
    retry: false,
  })
  return (
    <section className="similar" aria-labelledby="lookalike-title">
      <h2 className="section-title" id="lookalike-title">
        Looks alike
      </h2>
      {!hashed ? (
        <p className="muted">The picture is being compared with the library…</p>
      ) : lookalikes.isPending ? (
        <p className="muted">Looking for pictures like this one…</p>
      ) : lookalikes.isError ? (
        <p className="muted">Pictures that look alike are not available: {messageOf(lookalikes.error)}</p>
      ) : lookalikes.data.data.length === 0 ? (
        <p className="muted">No other picture in the library looks like this one.</p>
      ) : (
        <ul className="similar-grid">
          {lookalikes.data.data.map((hit) => (
            <li key={hit.id}>
              <Link href={assetHref(hit.id)}>
                <AssetThumb asset={hit} />
                <span>{assetTitle(hit)}</span>
                <span className="muted">{likeness(distanceOf(hit))}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

const distanceOf = (hit: object): number => ('distance' in hit && typeof hit.distance === 'number' ? hit.distance : 0)

const NOT_AVAILABLE = 'Similar assets are not available.'

/**
 * Why an asset has no similar assets: the server cannot embed, AI is off, or embeddings are still coming.
 * How the server or the organization is set up is for those who can change it (`canManage`); a member
 * is told only that the feature is not available.
 */
export function whyNone({ ai, ai_enabled }: Pick<Organization, 'ai' | 'ai_enabled'>, canManage: boolean): string {
  const unavailable = ai.unavailable_reason === 'no_pgvector' || !ai.available || !ai_enabled
  if (unavailable && !canManage) return NOT_AVAILABLE
  if (ai.unavailable_reason === 'no_pgvector') return 'Similar assets need the pgvector extension, and this server’s database does not have it.'
  if (!ai.available) return 'Similar assets need an embedding provider, and none is configured on this server.'
  if (!ai_enabled) return 'AI is off for this organization: you can turn it on in Settings, under Organization.'
  if (ai.embeddings_pending > 0) {
    return `This asset may have no embedding yet: ${plural(ai.embeddings_pending, 'asset')} in the organization ${ai.embeddings_pending === 1 ? 'is' : 'are'} waiting for one.`
  }
  return 'No other asset has an embedding yet.'
}
