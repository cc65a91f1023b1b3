import { useMutation } from '@tanstack/react-query'
import { ApiError } from '@asset-library/client'
import { useState, type FormEvent } from 'react'
import { appApi, unwrap } from '../../api/client'
import { messageOf } from '../../api/problem'

const MIN_PASSWORD = 10

/**
 * The emailed link's token, from the fragment; the address bar then shows no token, which moves to this
 * history entry's state, so a remount (or a reload) of the screen still has it.
 */
function takeTokenFromFragment(): string {
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? (history.state as { resetToken?: string } | null)?.resetToken ?? ''
  if (location.hash) history.replaceState({ resetToken: token }, '', location.pathname)
  return token
}

function problemText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'reset_link_invalid')
    return 'This link is unknown, expired, already used, or replaced by a newer one. Ask for a new link.'
  return messageOf(error)
}

/** /reset-password#token=…, the emailed link: choose a new password, then sign in with it. */
export function ResetPasswordScreen() {
  const [token] = useState(takeTokenFromFragment)
  const [password, setPassword] = useState('')
  const [repeated, setRepeated] = useState('')
  const reset = useMutation({
    mutationFn: () => unwrap(appApi.POST('/app/api/password-reset/complete', { body: { token, new_password: password } })),
    meta: { quiet: true },
  })
  const mismatch = repeated !== '' && repeated !== password
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!mismatch) reset.mutate()
  }
  if (reset.isSuccess) {
    return (
      <main className="auth-page">
        <section className="auth-card stack" aria-labelledby="reset-title">
          <h1 id="reset-title">Your password is changed</h1>
          <p role="status">You are signed out everywhere. Sign in with your new password.</p>
          <a className="button primary" href="/">
            Sign in
          </a>
        </section>
      </main>
    )
  }
  return (
    <main className="auth-page">
      <form className="auth-card stack" onSubmit={submit} aria-labelledby="reset-title">
        <h1 id="reset-title">Choose a new password</h1>
        {!token && (
          <p role="alert">
            This page needs the link from the email. <a href="/forgot-password">Ask for a new link</a>.
          </p>
        )}
        <label className="field">
          <span>New password</span>
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD}
            maxLength={200}
            aria-describedby="reset-password-hint"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <small id="reset-password-hint">At least {MIN_PASSWORD} characters. Every session of yours ends.</small>
        </label>
        <label className="field">
          <span>Repeat it</span>
          <input
            type="password"
            autoComplete="new-password"
            required
            maxLength={200}
            aria-invalid={mismatch}
            aria-describedby={mismatch ? 'reset-mismatch' : undefined}
            value={repeated}
            onChange={(e) => setRepeated(e.target.value)}
          />
          {mismatch && <small id="reset-mismatch">The two passwords differ.</small>}
        </label>
        {reset.isError && (
          <p className="form-error" role="alert">
            {problemText(reset.error)} {reset.error instanceof ApiError && reset.error.code === 'reset_link_invalid' && <a href="/forgot-password">Ask for a new link</a>}
          </p>
        )}
        <button type="submit" className="primary" disabled={reset.isPending || !token || mismatch}>
          Set new password
        </button>
        <p className="hint">
          <a href="/">Back to sign in</a>
        </p>
      </form>
    </main>
  )
}
