import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { appApi, unwrap, type AppData } from '../../api/client'
import { useOrg } from '../../session'
import { ConfirmDialog } from '../../ui/Dialog'
import { FormError } from '../../ui/FormError'
import { formatDate } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { useToast } from '../../ui/toast'
import { Table } from '../../ui/Table'
import { isPast, OnceSecret } from './parts'
import { useConfirmedMutation } from './useConfirmedMutation'

type Invitation = AppData<'/app/api/orgs/{org}/invitations', 'get'>['data'][number]

/** The link an invitee opens; it carries the token, shown once. */
export const invitationLink = (token: string) => `${location.origin}/invite/${token}`

/**
 * The invitations not yet accepted or revoked, expired ones included: each says when it expires or that
 * it has, and can be re-sent (a new link, valid as long as a new invitation) or revoked.
 */
export function PendingInvitations() {
  const org = useOrg()
  const queryClient = useQueryClient()
  const toast = useToast()
  const invitations = useQuery({
    queryKey: ['invitations', org],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/invitations', { params: { path: { org } } })),
    meta: { quiet: true },
  })
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['invitations', org] })
  const revoke = useConfirmedMutation({
    mutationFn: (invitation: Invitation) => unwrap(appApi.DELETE('/app/api/orgs/{org}/invitations/{id}', { params: { path: { org, id: invitation.id } } })),
    onSuccess: (_, invitation) => {
      toast.success(`The invitation for ${invitation.email} is revoked.`)
      refresh()
    },
  })
  // The new link holds the token: it lives only in the mutation, reset by Done.
  const resend = useMutation({
    mutationFn: (invitation: Invitation) =>
      unwrap(appApi.POST('/app/api/orgs/{org}/invitations/{id}/resend', { params: { path: { org, id: invitation.id } } })),
    onSuccess: (invitation) => {
      toast.success(`A new link for ${invitation.email} is ready; the old one no longer works.`)
      refresh()
    },
    gcTime: 0,
    meta: { quiet: true },
  })
  const open = (invitations.data?.data ?? []).filter((i) => !i.accepted_at && !i.revoked_at)
  const resent = resend.data
  return (
    <section className="stack" aria-labelledby="pending-title">
      <h3 id="pending-title">Pending invitations</h3>
      {invitations.isError && <QueryError error={invitations.error} onRetry={() => void invitations.refetch()} what="the invitations" />}
      {invitations.data && open.length === 0 && <p className="muted">No invitation is waiting to be accepted.</p>}
      <FormError error={resend.error} />
      {resent && (
        <div className="panel">
          <OnceSecret label="Invitation link" value={invitationLink(resent.token)} takeFocus onDone={() => resend.reset()}>
            {' '}Send it to <strong>{resent.email}</strong>: it works once, until {formatDate(resent.expires_at)}.
          </OnceSecret>
        </div>
      )}
      {open.length > 0 && (
        <Table columns={['Email', 'Role', 'Invited', 'Expires', { label: 'Actions', hidden: true }]} caption="Pending invitations" stacked>
          {open.map((invitation) => (
            <tr key={invitation.id}>
              <td className="email">{invitation.email}</td>
              <td>
                <span className="badge">{invitation.role}</span>
              </td>
              <td className="nowrap">{formatDate(invitation.created_at)}</td>
              <td className="nowrap">
                {isPast(invitation.expires_at) ? <span className="badge warn">Expired {formatDate(invitation.expires_at)}</span> : formatDate(invitation.expires_at)}
              </td>
              <td className="actions-cell">
                <button
                  type="button"
                  className="small"
                  disabled={resend.isPending}
                  onClick={() => resend.mutate(invitation)}
                  aria-label={`Re-send the invitation for ${invitation.email}`}
                >
                  Re-send
                </button>
                <button type="button" className="danger small" onClick={() => revoke.ask(invitation)} aria-label={`Revoke the invitation for ${invitation.email}`}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <ConfirmDialog title="Revoke this invitation?" confirmLabel="Revoke invitation" {...revoke.dialog}>
        <p>The link sent to {revoke.asked?.email} stops working. You can invite them again later.</p>
      </ConfirmDialog>
    </section>
  )
}
