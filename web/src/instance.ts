import { useQuery } from '@tanstack/react-query'
import { appApi, unwrap } from './api/client'

/**
 * Facts about this server (whether anyone has signed in yet, whether it sends email, up to where it
 * counts a full-text list's matches). Forgotten as soon
 * as no screen uses it (`gcTime: 0`), so that after a sign-in and a sign-out it is asked again.
 */
export function useInstance() {
  return useQuery({
    queryKey: ['instance'],
    queryFn: () => unwrap(appApi.GET('/app/api/instance')),
    gcTime: 0,
    // Without the answer the hints stay hidden; the forms work either way.
    meta: { quiet: true },
  })
}
