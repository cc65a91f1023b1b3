import { useMutation } from '@tanstack/react-query'
import { useRef, useState } from 'react'

/**
 * Ask, then act: `ask(value)` opens the confirmation, its confirm button runs the mutation once (a
 * second click while it runs is ignored, even before the dialog has re-rendered busy), and the dialog
 * closes only when it succeeded; a failure keeps it open, with the error toast, to retry or cancel.
 * The answer is not kept: `onSuccess` receives it, then the mutation is reset and leaves the cache
 * at once (a rotated secret must not linger there).
 */
export function useConfirmedMutation<TValue, TData = unknown>(options: {
  mutationFn(value: TValue): Promise<TData>
  onSuccess?(data: TData, value: TValue): void
}) {
  const [asked, setAsked] = useState<{ value: TValue } | null>(null)
  const running = useRef(false)
  const mutation = useMutation({ mutationFn: options.mutationFn, onSuccess: options.onSuccess, gcTime: 0 })
  const confirm = () => {
    if (!asked || running.current) return
    running.current = true
    mutation.mutate(asked.value, {
      onSuccess: () => {
        setAsked(null)
        mutation.reset()
      },
      onSettled: () => {
        running.current = false
      },
    })
  }
  return {
    /** What waits for confirmation, if anything. */
    asked: asked?.value,
    ask: (value: TValue) => setAsked({ value }),
    /** The props of the ConfirmDialog that asks. */
    dialog: {
      open: asked !== null,
      busy: mutation.isPending,
      onConfirm: confirm,
      onClose: () => {
        if (!running.current) setAsked(null)
      },
    },
  }
}
