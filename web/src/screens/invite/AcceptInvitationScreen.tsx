import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useLocation } from 'wouter'
import { appApi, unwrap } from '../../api/client'
import { ApiError, messageOf } from '../../api/problem'
import { rememberSession, SESSION_QUERY } from '../../session'
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
  const accept = useMutation({
    mutationFn: () =>
      unwrap(appApi.POST('/app/api/invitations/accept', { body: { token: params.token, password, ...(name.trim() ? { name: name.trim() } : {}) } })),
    onSuccess: (session) => {
      queryClient.setQueryData(SESSION_QUERY, rememberSession(session))
      navigate('/', { replace: true })
    },
    meta: { quiet: true },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    accept.mutate()
  }
  return (
    <main className="auth-page">
      <form className="auth-card stack" onSubmit={submit} aria-labelledby="accept-title">
        <div className="accept-intro">
          <h1 id="accept-title">Join your team on Asset Library</h1>
          <p className="muted">You were invited to an organization. Choose how you will sign in, and you are in.</p>
        </div>
        <label className="field">
          <span>Your name</span>
          <input autoComplete="name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          <small>Shown to your teammates. Leave it empty if you already have an account.</small>
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD}
            maxLength={200}
            aria-describedby="accept-password-hint"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <small id="accept-password-hint">
            At least {MIN_PASSWORD} characters. Already have an account with the invited email? Enter its password instead.
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
