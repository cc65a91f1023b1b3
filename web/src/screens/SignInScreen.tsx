import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Link } from 'wouter'
import { appApi, unwrap } from '../api/client'
import { useInstance } from '../instance'
import { FormError } from '../ui/FormError'
import { signedIn } from '../session'

export function SignInScreen() {
  const queryClient = useQueryClient()
  // Whether no one has signed in to this server yet.
  const firstSignIn = useInstance().data?.first_sign_in_pending === true
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const signIn = useMutation({
    mutationFn: () => unwrap(appApi.POST('/app/api/login', { body: { email, password } })),
    onSuccess: (session) => signedIn(queryClient, session),
    // Shown in the form, not as a toast.
    meta: { quiet: true },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    signIn.mutate()
  }
  return (
    <main className="auth-page">
      <form className="auth-card stack" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Asset Library</h1>
        <label className="field">
          <span>Email</span>
          <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="field">
          <span>Password</span>
          <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <FormError error={signIn.error} />
        <button type="submit" className="primary" disabled={signIn.isPending}>
          Sign in
        </button>
        <p className="hint">
          <Link href="/forgot-password">Forgot password?</Link>
        </p>
        {firstSignIn && <p className="hint">The first start printed the owner's email and password in the server's log.</p>}
      </form>
    </main>
  )
}
