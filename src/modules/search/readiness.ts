import type { EmbeddingReadiness, Embeddings, OrganizationAiStatus } from './embeddings.js'
import type { ImageEmbeddingReadiness, ImageEmbeddings } from './image-embeddings.js'

/** How search runs (/ready, the start-up log): its mode, the text provider's state, and the image provider's when there is one. */
export type SearchReadiness = EmbeddingReadiness & { images?: ImageEmbeddingReadiness }

/**
 * Hybrid when either provider can serve it: the image provider alone makes search hybrid (its meaning
 * is CLIP's), and it is the one search asks when both are configured.
 */
export async function searchReadiness(text: Embeddings, images: ImageEmbeddings): Promise<SearchReadiness> {
  const readiness = await text.readiness()
  const imageReadiness = await images.readiness()
  if (!imageReadiness) return readiness
  if (!(await images.enabled())) return { ...readiness, images: imageReadiness }
  const { reason: _textReason, ...rest } = readiness
  return { ...rest, mode: 'hybrid', images: imageReadiness }
}

/** What an organization's members are told about AI: whether either provider works here, and how many of its texts and images wait. */
export async function organizationAiStatus(text: Embeddings, images: ImageEmbeddings, organizationId: string): Promise<OrganizationAiStatus> {
  const ofText = await text.organizationStatus(organizationId)
  if (!(await images.enabled())) return ofText
  const counts = await images.imageCounts(organizationId)
  return { available: true, unavailable_reason: null, embeddings_pending: ofText.embeddings_pending + counts.missing + counts.stale }
}
