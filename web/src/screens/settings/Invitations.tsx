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
type CreatedInvitation = AppData<'/app/api/orgs/{org}/invitations', 'post'>

/** What a new (or re-sent) invitation's panel says of its email, beside the link to copy. */
const EMAILED: Record<CreatedInvitation['email_status'], (email: string) => string> = {
  sent: (email) => `It was emailed to ${email}; you can also send the link yourself.`,
  failed: (email) => `The email to ${email} could not be sent (the server's log says why): send the link yourself.`,
  not_configured: (email) => `Email is not set up on this server; copy the link and send it to ${email}.`,
}

/** A new invitation's link, shown once, and whether it was emailed. */
export function InvitationLink(props: { invitation: CreatedInvitation; takeFocus?: boolean; onDone(): void }) {
  const { invitation, takeFocus, onDone } = props
  return (
    <OnceSecret label="Invitation link" value={invitationLink(invitation.token)} takeFocus={takeFocus} onDone={onDone}>
      {' '}
      {EMAILED[invitation.email_status](invitation.email)} It works once, until {formatDate(invitation.expires_at)}.
    </OnceSecret>
  )
}

/** The toast after an invitation is made or re-sent. */
export const invitationToast = (invitation: CreatedInvitation, made: string) =>
  invitation.email_status === 'sent' ? `${made} and emailed to ${invitation.email}.` : `${made} for ${invitation.email}.`

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
      toast.success(`${invitationToast(invitation, 'A new link is made')} The old one no longer works.`)
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
          <InvitationLink invitation={resent} takeFocus onDone={() => resend.reset()} />
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
