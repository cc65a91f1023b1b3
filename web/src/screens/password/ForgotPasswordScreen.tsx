import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { appApi, unwrap } from '../../api/client'
import { useInstance } from '../../instance'
import { FormError } from '../../ui/FormError'

/** /forgot-password, without a session: a reset link by email, or, on a server that sends none, who can help. */
export function ForgotPasswordScreen() {
  const instance = useInstance()
  const [email, setEmail] = useState('')
  const request = useMutation({
    mutationFn: () => unwrap(appApi.POST('/app/api/password-reset', { body: { email: email.trim() } })),
    meta: { quiet: true },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    request.mutate()
  }
  if (instance.isPending) return <main className="auth-page" aria-busy="true" />
  if (instance.data?.email_configured === false) {
    return (
      <main className="auth-page">
        <section className="auth-card stack" aria-labelledby="forgot-title">
          <h1 id="forgot-title">Forgot your password?</h1>
          <p>Email is not set up on this server, so it cannot send you a reset link.</p>
          <p>
            Ask an owner or admin of your organization: the server's operator sets a new password with{' '}
            <code>asset-library user set-password --org SLUG --email YOUR-EMAIL</code>, which prints it and signs you out everywhere.
          </p>
          <p className="hint">
            <a href="/">Back to sign in</a>
          </p>
        </section>
      </main>
    )
  }
  return (
    <main className="auth-page">
      <form className="auth-card stack" onSubmit={submit} aria-labelledby="forgot-title">
        <h1 id="forgot-title">Forgot your password?</h1>
        {request.isSuccess ? (
          <p role="status">
            If <strong>{email.trim()}</strong> has an account, an email with a link to choose a new password is on its way. The link works once, for 30
            minutes.
          </p>
        ) : (
          <>
            <p className="muted">Enter the email you sign in with, and we will send you a link to choose a new password.</p>
            <label className="field">
              <span>Email</span>
              <input type="email" autoComplete="username" required maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} />
            </label>
            <FormError error={request.error} />
            <button type="submit" className="primary" disabled={request.isPending}>
              Send reset link
            </button>
          </>
        )}
        <p className="hint">
          <a href="/">Back to sign in</a>
        </p>
      </form>
    </main>
  )
}
