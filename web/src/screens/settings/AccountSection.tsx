import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { appApi, unwrap } from '../../api/client'
import { useSession } from '../../session'
import { FormError } from '../../ui/FormError'
import { useToast } from '../../ui/toast'
import { SectionHeader } from './parts'

/** The server's minimum for a new password (ChangePasswordBody). */
const MIN_PASSWORD_LENGTH = 10

/** Settings → Your account: who is signed in, and changing one's own password. */
export function AccountSection() {
  const { user } = useSession()
  return (
    <section className="stack" aria-labelledby="account-title">
      <SectionHeader title="Your account" id="account-title" />
      <p>
        Signed in as <strong>{user.name || user.email}</strong>
        {user.name && <span className="muted"> ({user.email})</span>}.
      </p>
      <PasswordForm />
    </section>
  )
}

function PasswordForm() {
  const toast = useToast()
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [repeated, setRepeated] = useState('')
  const change = useMutation({
    mutationFn: () => unwrap(appApi.POST('/app/api/password', { body: { current_password: current, new_password: next } })),
    onSuccess: () => {
      setCurrent('')
      setNext('')
      setRepeated('')
      toast.success('Password changed. Your other sessions are signed out; this one stays signed in.')
    },
    meta: { quiet: true },
  })
  const mismatch = repeated !== '' && repeated !== next
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!mismatch) change.mutate()
  }
  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="password-title">
      <h3 id="password-title">Change your password</h3>
      <p className="hint">Changing it signs you out everywhere else: other browsers and devices must sign in again.</p>
      <div className="form-grid">
        <label className="field">
          <span>Current password</span>
          <input type="password" required autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        </label>
        <label className="field">
          <span>New password</span>
          <input
            type="password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            autoComplete="new-password"
            aria-describedby="new-password-hint"
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
        </label>
        <label className="field">
          <span>Repeat the new password</span>
          <input
            type="password"
            required
            autoComplete="new-password"
            aria-invalid={mismatch}
            aria-describedby={mismatch ? 'repeat-password-error' : undefined}
            value={repeated}
            onChange={(e) => setRepeated(e.target.value)}
          />
        </label>
        <button type="submit" className="primary" disabled={change.isPending || mismatch}>
          Change password
        </button>
      </div>
      <small id="new-password-hint" className="hint">
        At least {MIN_PASSWORD_LENGTH} characters.
      </small>
      {mismatch && (
        <p id="repeat-password-error" className="form-error" role="alert">
          The two new passwords differ.
        </p>
      )}
      <FormError error={change.error} />
    </form>
  )
}
