import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useLocation } from 'wouter'
import { appApi, unwrap } from '../../api/client'
import { ApiError } from '@asset-library/client'
import { messageOf } from '../../api/problem'
import { signedIn } from '../../session'
import './invite.css'

const MIN_PASSWORD = 10

function problemText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'invitation_not_found')
    return 'This invitation is unknown, expired, revoked or already used. Ask whoever invited you for a new link.'
  if (error instanceof ApiError && error.code === 'invalid_credentials')
    return 'This email already has an account, and that is not its password. Enter the password you sign in with.'
  return messageOf(error)
}

/** /invite/:token, without a session: join the organization, as a new user or with an existing account. */
export function AcceptInvitationScreen({ params }: { params: { token: string } }) {
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  // Each lookup spends the per-IP sign-in budget (10 a minute): look once, never again on focus,
  // reconnect or failure. The answer cannot change while the page is open, except by accepting.
  const invitation = useQuery({
    queryKey: ['invitation', params.token],
    queryFn: () => unwrap(appApi.POST('/app/api/invitations/lookup', { body: { token: params.token } })),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
    meta: { quiet: true },
  })
  const accept = useMutation({
    mutationFn: () =>
      unwrap(appApi.POST('/app/api/invitations/accept', { body: { token: params.token, password, ...(name.trim() ? { name: name.trim() } : {}) } })),
    onSuccess: (session) => {
      // A new session, as after a sign-in: nothing cached before it (this lookup included) is kept.
      signedIn(queryClient, session)
      navigate('/', { replace: true })
    },
    meta: { quiet: true },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    accept.mutate()
  }
  if (invitation.isPending) return <main className="auth-page" aria-busy="true" />
  if (invitation.isError) {
    return (
      <main className="auth-page">
        <section className="auth-card stack" aria-labelledby="accept-title">
          <h1 id="accept-title">This invitation cannot be used</h1>
          <p role="alert">{problemText(invitation.error)}</p>
          <p className="hint">
            Already a member? <a href="/">Sign in</a>
          </p>
        </section>
      </main>
    )
  }
  const { email, organization_name, role, existing_user } = invitation.data
  return (
    <main className="auth-page">
      <form className="auth-card stack" onSubmit={submit} aria-labelledby="accept-title">
        <div className="accept-intro">
          <h1 id="accept-title">Join {organization_name} on Asset Library</h1>
          <p className="muted">
            You were invited as {role === 'member' ? 'a member' : `an ${role}`}, with <strong>{email}</strong>.{' '}
            {existing_user ? 'This email already has an account: sign in with its password to join.' : 'Choose a password, and you are in.'}
          </p>
        </div>
        {!existing_user && (
          <label className="field">
            <span>Your name</span>
            <input autoComplete="name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
            <small>Shown to your teammates.</small>
          </label>
        )}
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            autoComplete={existing_user ? 'current-password' : 'new-password'}
            required
            minLength={existing_user ? 1 : MIN_PASSWORD}
            maxLength={200}
            aria-describedby="accept-password-hint"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <small id="accept-password-hint">
            {existing_user ? 'The password you sign in with.' : `At least ${MIN_PASSWORD} characters.`}
          </small>
        </label>
        {accept.isError && (
          <p className="form-error" role="alert">
            {problemText(accept.error)}
          </p>
        )}
        <button type="submit" className="primary" disabled={accept.isPending}>
          Accept invitation
        </button>
        <p className="hint">
          Already a member? <a href="/">Sign in</a>
        </p>
      </form>
    </main>
  )
}
