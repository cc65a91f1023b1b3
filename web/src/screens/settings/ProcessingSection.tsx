import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { appApi, unwrap, type AppData } from '../../api/client'
import { useOrg } from '../../session'
import { formatDate } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { Table } from '../../ui/Table'
import { useToast } from '../../ui/toast'
import { AI_UNAVAILABLE } from './OrganizationSection'
import { SectionHeader } from './parts'

type Queue = AppData<'/app/api/orgs/{org}/jobs', 'get'>['data'][number]

/** While the panel is open, the counts follow the work without a reload. */
const REFRESH_MS = 5_000

const LABELS: Record<string, string> = { thumbnails: 'Thumbnails', embeddings: 'Search embeddings', image_embeddings: 'Picture embeddings' }

/** The setting that makes picture embeddings, which the text provider's advice does not name. */
const IMAGE_PROVIDER_ADVICE = (
  <>
    To turn them on, the server’s operator sets <code>IMAGE_EMBEDDING_PROVIDER</code> to <code>immich-ml</code> or <code>onnx</code> (see “Search that sees the
    pictures” in the README).
  </>
)

/**
 * The work done after each push (thumbnails, embeddings) for this organization: how much waits, runs
 * and failed, with a retry per queue. For owners and admins; the operator's `asset-library jobs` shows
 * the same for the whole instance.
 */
export function ProcessingSection() {
  const org = useOrg()
  const queryClient = useQueryClient()
  const toast = useToast()
  const queues = useQuery({
    queryKey: ['jobs', org],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/jobs', { params: { path: { org } } })),
    refetchInterval: REFRESH_MS,
    meta: { quiet: true },
  })
  const retry = useMutation({
    mutationFn: (name: string) => unwrap(appApi.POST('/app/api/orgs/{org}/jobs/{name}/retry', { params: { path: { org, name } } })),
    onSuccess: ({ name, queued }) => {
      toast.success(queued === 0 ? `Nothing to retry in ${labelOf(name)}.` : `${queued} ${queued === 1 ? 'job' : 'jobs'} of ${labelOf(name)} queued again.`)
      void queryClient.invalidateQueries({ queryKey: ['jobs', org] })
    },
  })
  return (
    <section className="stack" aria-labelledby="processing-title">
      <SectionHeader title="Processing" id="processing-title" />
      <p className="muted section-intro">
        After each push the library makes a thumbnail and, with AI on, the embeddings that search uses: of the words, and of the picture when the server has an
        image model. <em>Retry failed</em> queues again what failed and what is missing.
      </p>
      {queues.isError && <QueryError error={queues.error} onRetry={() => void queues.refetch()} what="the processing queues" />}
      {queues.isPending && <p className="muted">Loading the queues…</p>}
      {queues.data && (
        <Table columns={['Queue', 'Waiting', 'Running', 'Failed', 'Oldest waiting since', { label: 'Actions', hidden: true }]} caption="Processing queues" stacked>
          {queues.data.data.map((queue) => (
            <QueueRow key={queue.name} queue={queue} busy={retry.isPending && retry.variables === queue.name} onRetry={() => retry.mutate(queue.name)} />
          ))}
        </Table>
      )}
      {queues.data?.data.map((queue) => queue.unavailable_reason !== null && <Unavailable key={queue.name} queue={queue} />)}
    </section>
  )
}

function QueueRow({ queue, busy, onRetry }: { queue: Queue; busy: boolean; onRetry(): void }) {
  return (
    <tr>
      <th scope="row">{labelOf(queue.name)}</th>
      <td>{queue.pending}</td>
      <td>{queue.running}</td>
      <td>{queue.failed}</td>
      <td>{formatDate(queue.oldest_pending_at)}</td>
      <td>
        {queue.unavailable_reason !== null ? (
          <small className="hint" aria-describedby={`${queue.name}-unavailable`}>
            Not configured on this server
          </small>
        ) : (
          <button type="button" disabled={busy} onClick={onRetry} aria-label={`Retry failed ${labelOf(queue.name).toLowerCase()}`}>
            Retry failed
          </button>
        )}
      </td>
    </tr>
  )
}

/**
 * Why a queue's work cannot be done on this server, and what its operator sets; its jobs wait for that.
 * The embeddings' reasons are the ones the Organization section gives for its AI switch.
 */
function Unavailable({ queue }: { queue: Queue }) {
  const reason = queue.unavailable_reason!
  const advice =
    queue.name === 'image_embeddings' && reason === 'no_provider'
      ? IMAGE_PROVIDER_ADVICE
      : reason in AI_UNAVAILABLE
        ? AI_UNAVAILABLE[reason as keyof typeof AI_UNAVAILABLE]
        : `(${reason})`
  return (
    <p className="note" id={`${queue.name}-unavailable`}>
      {labelOf(queue.name)} are not made on this server. {advice}
    </p>
  )
}

function labelOf(name: string): string {
  return LABELS[name] ?? name
}
