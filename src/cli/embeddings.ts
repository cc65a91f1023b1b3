import { progressBar } from '../platform/progress.js'
import { UsageError, type Options } from './arguments.js'
import type { CommandContext, Commands } from './command.js'
import { output } from './output.js'
import { searchReadiness } from '../modules/search/readiness.js'

/** The organization `--org` names (its id and how the output names it), or all of them. */
export async function organizationScope(values: Options, { orgs }: CommandContext['services']) {
  if (!values.org) return { organizationId: undefined, scope: 'all organizations' }
  return { organizationId: (await orgs.organizationBySlug(values.org)).id, scope: `organization ${values.org}` }
}

/** The image lines of `embeddings status`, when an image provider is configured. */
async function imageStatus({ imageEmbeddings }: CommandContext, organizationId: string | undefined) {
  if (imageEmbeddings.model === undefined) return undefined
  const counts = await imageEmbeddings.imageCounts(organizationId)
  const lines = [
    `Images (model ${imageEmbeddings.model}):`,
    `  current     ${counts.current}`,
    `  stale       ${counts.stale}   (new version or model; the old vector is used until the new one is made, if of this model)`,
    `  missing     ${counts.missing}`,
    `  unreadable  ${counts.unreadable}   (files that cannot be decoded: no vector)`,
    `  failing     ${counts.failing}   (waiting to retry after a provider error)`,
    `  AI off      ${counts.ai_disabled}`,
  ]
  return { counts, lines }
}

export const embeddingCommands: Commands = {
  'embeddings status': async (context) => {
    const { values, services, embeddings, imageEmbeddings } = context
    const { organizationId, scope } = await organizationScope(values, services)
    const counts = await embeddings.textCounts(organizationId)
    const readiness = await searchReadiness(embeddings, imageEmbeddings)
    const meaning = readiness.images ? `CLIP model ${readiness.images.model}` : `model ${readiness.model}`
    const mode = readiness.mode === 'hybrid' ? `hybrid (${meaning})` : `text (${readiness.reason === 'no_provider' ? 'no EMBEDDING_BASE_URL or IMAGE_EMBEDDING_PROVIDER' : 'no pgvector'})`
    const images = await imageStatus(context, organizationId)
    const text = [
      `Embeddings for ${scope}; search mode: ${mode}`,
      `Texts:`,
      `  current  ${counts.current}`,
      `  stale    ${counts.stale}   (text or model changed; the old vector is used until the new one is made)`,
      `  missing  ${counts.missing}`,
      `  failing  ${counts.failing}   (waiting to retry after a provider error)`,
      `  AI off   ${counts.ai_disabled}   (organizations with AI disabled: never sent to the provider)`,
      ...(images?.lines ?? []),
    ].join('\n')
    return output(values, { mode: readiness.mode, ...counts, ...(images && { images: images.counts }) }, text)
  },
  'embeddings backfill': async ({ values, services, embeddings, imageEmbeddings }) => {
    const { organizationId, scope } = await organizationScope(values, services)
    if (values.images) {
      if (!(await imageEmbeddings.enabled())) throw new UsageError('backfill --images needs IMAGE_EMBEDDING_PROVIDER (immich-ml or onnx), and pgvector in the database')
      await imageEmbeddings.retry(organizationId)
      const before = await imageEmbeddings.counts(organizationId)
      const bar = progressBar('Embedding images', before.pending + before.failed)
      const result = await imageEmbeddings.backfill({ organizationId, onProgress: (done) => bar.update(done) })
      bar.finish()
      const failed = result.failed > 0 ? `; ${result.failed} failed and will be retried (see the log)` : ''
      return output(values, result, `Embedded the images of ${result.embedded} assets of ${scope}${failed}`)
    }
    if (!(await embeddings.enabled())) throw new UsageError('backfill needs EMBEDDING_BASE_URL and EMBEDDING_MODEL, and pgvector in the database')
    const before = await embeddings.textCounts(organizationId)
    const bar = progressBar('Embedding', before.missing + before.stale)
    const result = await embeddings.backfill({ organizationId, onProgress: (done) => bar.update(done) })
    bar.finish()
    const failed = result.failed > 0 ? `; ${result.failed} failed and will be retried (see the log)` : ''
    return output(values, result, `Embedded ${result.embedded} assets of ${scope}${failed}`)
  },
}
