import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { ApiError } from '@asset-library/client'
import { retryDelay, shouldRetry } from './api/retry'
import { App } from './App'
import { ToastBridge, ToastProvider, toastBridge } from './ui/toast'
import './styles.css'

const showError = (error: unknown, quiet?: unknown) => {
  // A 401 signs out (the client's middleware); a form that shows its own error says so in `meta.quiet`.
  if ((error instanceof ApiError && error.status === 401) || quiet) return
  toastBridge.current?.error(error)
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => showError(error, query.meta?.quiet) }),
  mutationCache: new MutationCache({ onError: (error, _vars, _ctx, mutation) => showError(error, mutation.meta?.quiet) }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: shouldRetry,
      retryDelay,
    },
  },
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <ToastBridge />
        <App />
      </ToastProvider>
    </QueryClientProvider>
  </StrictMode>,
)
