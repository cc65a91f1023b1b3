import { useMutation, useQueryClient } from '@tanstack/react-query'
import { problemCodeOf } from '../../api/problem'
import { unwrap, v1 } from '../../api/client'
import { useToast } from '../../ui/toast'
import { IMPORTS_KEY } from './api'

/** "Sync now": runs an import again; one already running is said so, not shown as a failure of the server. */
export function useSync() {
  const queryClient = useQueryClient()
  const toast = useToast()
  return useMutation({
    mutationFn: ({ id, token }: { id: string; token?: string | undefined }) =>
      unwrap(v1.POST('/api/v1/imports/{id}/rerun', { params: { path: { id } }, body: token ? { figma_token: token } : {} })),
    onSuccess: () => {
      toast.success('Sync started.')
      void queryClient.invalidateQueries({ queryKey: [IMPORTS_KEY] })
    },
    onError: (error) => {
      if (problemCodeOf(error) === 'import_in_progress') {
        toast.error(new Error('This import is already running: it syncs when it ends.'))
        void queryClient.invalidateQueries({ queryKey: [IMPORTS_KEY] })
      } else toast.error(error)
    },
    gcTime: 0,
    meta: { quiet: true },
  })
}
