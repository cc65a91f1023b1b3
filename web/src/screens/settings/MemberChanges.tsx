import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { appApi, unwrap, type AppData } from '../../api/client'
import { useOrg } from '../../session'
import { formatDate } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import './member-changes.css'

type MemberChange = AppData<'/app/api/orgs/{org}/members/changes', 'get'>['data'][number]
const PAGE = 20

/** One sentence per change, which reads the same at any width (a table of three columns did not at 375 px). */
function sentence(change: MemberChange): string {
  const { actor, member } = change
  switch (change.action) {
    case 'removed':
      return `${actor.email} removed ${member.email} (was ${change.from_role})`
    case 'role_changed':
      return `${actor.email} changed ${member.email} from ${change.from_role} to ${change.to_role}`
    case 'ownership_transferred':
      return `${actor.email} handed ownership to ${member.email}`
  }
}

/** Who removed whom or changed whose role, newest first: for owners and admins. */
export function MemberChanges() {
  const org = useOrg()
  const [offset, setOffset] = useState(0)
  const changes = useQuery({
    queryKey: ['member-changes', org, offset],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/members/changes', { params: { path: { org }, query: { limit: PAGE, offset } } })),
    placeholderData: (previous) => previous,
    meta: { quiet: true },
  })
  const page = changes.data
  return (
    <section className="stack" aria-labelledby="member-changes-title">
      <h3 id="member-changes-title">Member changes</h3>
      {changes.isError && <QueryError error={changes.error} onRetry={() => void changes.refetch()} what="the member changes" />}
      {page && page.total === 0 && <p className="muted">Nobody has been removed or given another role yet.</p>}
      {page && page.data.length > 0 && (
        <>
          <ol className="member-changes" aria-labelledby="member-changes-title">
            {page.data.map((change) => (
              <li key={change.id}>
                <time dateTime={change.created_at}>{formatDate(change.created_at)}</time>
                <span>{sentence(change)}</span>
              </li>
            ))}
          </ol>
          {page.total > PAGE && (
            <nav className="pager row" aria-label="Member change pages">
              <span className="muted">
                {page.offset + 1}–{page.offset + page.data.length} of {page.total}
              </span>
              <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                Newer
              </button>
              <button type="button" disabled={page.offset + page.data.length >= page.total} onClick={() => setOffset(offset + PAGE)}>
                Older
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  )
}
