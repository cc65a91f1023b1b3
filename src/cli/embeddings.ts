import { progressBar } from '../platform/progress.js'
import { UsageError, type Options } from './arguments.js'
import type { CommandContext, Commands } from './command.js'
import { output } from './output.js'

/** The organization `--org` names (its id and how the output names it), or all of them. */
export async function organizationScope(values: Options, { orgs }: CommandContext['services']) {
  if (!values.org) return { organizationId: undefined, scope: 'all organizations' }
  return { organizationId: (await orgs.organizationBySlug(values.org)).id, scope: `organization ${values.org}` }
}

export const embeddingCommands: Commands = {
  'embeddings status': async ({ values, services, embeddings }) => {
    const { organizationId, scope } = await organizationScope(values, services)
    const counts = await embeddings.textCounts(organizationId)
    const readiness = await embeddings.readiness()
    const mode = readiness.mode === 'hybrid' ? `hybrid (model ${readiness.model})` : `text (${readiness.reason === 'no_provider' ? 'no EMBEDDING_BASE_URL' : 'no pgvector'})`
    const text = [
      `Embeddings for ${scope}; search mode: ${mode}`,
      `  current  ${counts.current}`,
      `  stale    ${counts.stale}   (text or model changed; the old vector is used until the new one is made)`,
      `  missing  ${counts.missing}`,
      `  failing  ${counts.failing}   (waiting to retry after a provider error)`,
      `  AI off   ${counts.ai_disabled}   (organizations with AI disabled: never sent to the provider)`,
    ].join('\n')
    return output(values, { mode: readiness.mode, ...counts }, text)
  },
  'embeddings backfill': async ({ values, services, embeddings }) => {
    const { organizationId, scope } = await organizationScope(values, services)
    if (!(await embeddings.enabled())) throw new UsageError('backfill needs EMBEDDING_BASE_URL and EMBEDDING_MODEL, and pgvector in the database')
    const before = await embeddings.textCounts(organizationId)
    const bar = progressBar('Embedding', before.missing + before.stale)
    const result = await embeddings.backfill({ organizationId, onProgress: (done) => bar.update(done) })
    bar.finish()
    const failed = result.failed > 0 ? `; ${result.failed} failed and will be retried (see the log)` : ''
    return output(values, result, `Embedded ${result.embedded} assets of ${scope}${failed}`)
  },
}
