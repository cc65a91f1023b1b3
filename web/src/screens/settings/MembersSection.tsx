import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { appApi, unwrap, type AppData } from '../../api/client'
import { useOrg, useSession } from '../../session'
import { FormError } from '../../ui/FormError'
import { QueryError } from '../../ui/QueryError'
import { useToast } from '../../ui/toast'
import { useInstance } from '../../instance'
import { InvitationLink, invitationToast, PendingInvitations } from './Invitations'
import { MemberChanges } from './MemberChanges'
import { MemberTable } from './MemberTable'
import { SectionHeader } from './parts'

type Invitation = AppData<'/app/api/orgs/{org}/invitations', 'get'>['data'][number]
type Role = Invitation['role']

const ROLES: Record<Role, string> = {
  member: 'Member: browses, uploads, edits and collects assets.',
  admin: 'Admin: also manages keys, webhooks, members and the organization’s settings.',
  owner: 'Owner: everything an admin does, and makes, removes and invites other owners.',
}

export function MembersSection() {
  const org = useOrg()
  const { canManage } = useSession()
  const members = useQuery({
    queryKey: ['members', org],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/members', { params: { path: { org } } })),
    meta: { quiet: true },
  })
  return (
    <section className="stack" aria-labelledby="members-title">
      <SectionHeader title="Members" id="members-title" />
      {!canManage && <p className="note">You can see who is in the organization. An owner or admin invites people and manages keys, webhooks and settings.</p>}
      {canManage && <InviteForm />}
      {members.isPending && <p className="muted">Loading members…</p>}
      {members.isError && <QueryError error={members.error} onRetry={() => void members.refetch()} what="the members" />}
      {members.data && <MemberTable members={members.data.data} />}
      {canManage && <PendingInvitations />}
      {canManage && <MemberChanges />}
    </section>
  )
}

function InviteForm() {
  const org = useOrg()
  const queryClient = useQueryClient()
  const toast = useToast()
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('member')
  // The link holds the token: it lives only in the mutation, reset by Done and dropped from the cache with the form.
  const invite = useMutation({
    mutationFn: () => unwrap(appApi.POST('/app/api/orgs/{org}/invitations', { params: { path: { org } }, body: { email: email.trim(), role } })),
    onSuccess: (invitation) => {
      setEmail('')
      toast.success(invitationToast(invitation, 'Invitation created'))
      void queryClient.invalidateQueries({ queryKey: ['invitations', org] })
    },
    gcTime: 0,
    meta: { quiet: true },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    invite.mutate()
  }
  const invitation = invite.data
  const emailConfigured = useInstance().data?.email_configured
  return (
    <div className="panel stack">
      <form className="stack" onSubmit={submit} aria-labelledby="invite-title">
        <h3 id="invite-title">Invite someone</h3>
        <div className="form-grid">
          <label className="field">
            <span>Email</span>
            <input type="email" required autoComplete="off" placeholder="name@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <label className="field">
            <span>Role</span>
            <select value={role} onChange={(e) => setRole(e.target.value as Role)} aria-describedby="role-hint">
              <option value="member">Member</option>
              <option value="admin">Admin</option>
              <option value="owner">Owner</option>
            </select>
          </label>
          <button type="submit" className="primary" disabled={invite.isPending}>
            Create invitation
          </button>
        </div>
        <small id="role-hint" className="hint">
          {ROLES[role]}
        </small>
        {emailConfigured !== undefined && (
          <p className="hint">{emailConfigured ? 'The invitation is emailed to them; its link is also shown here.' : 'Email is not set up on this server; copy the link.'}</p>
        )}
        <FormError error={invite.error} />
      </form>
      {invitation && (
        <InvitationLink invitation={invitation} onDone={() => invite.reset()} />
      )}
    </div>
  )
}
