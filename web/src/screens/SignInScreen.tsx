import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { appApi, unwrap } from '../api/client'
import { FormError } from '../ui/FormError'
import { signedIn } from '../session'

/**
 * Whether no one has signed in to this server yet. Forgotten as soon as the screen goes (`gcTime: 0`),
 * so that after a sign-in and a sign-out the answer is asked again, not read from before.
 */
function useFirstSignInPending(): boolean {
  const instance = useQuery({
    queryKey: ['instance'],
    queryFn: () => unwrap(appApi.GET('/app/api/instance')),
    gcTime: 0,
    // Without the answer the hint stays hidden; the form works either way.
    meta: { quiet: true },
  })
  return instance.data?.first_sign_in_pending === true
}

export function SignInScreen() {
  const queryClient = useQueryClient()
  const firstSignIn = useFirstSignInPending()
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
        {firstSignIn && <p className="hint">The first start printed the owner's email and password in the server's log.</p>}
      </form>
    </main>
  )
}
