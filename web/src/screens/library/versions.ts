/** An asset's versions: the history, a new file uploaded as the next version, an old one restored. */
import { ApiError, apiErrorOf, parseRetryAfter } from '@asset-library/client'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { ASSETS_KEY, invalidateAssetData } from '../../api/cache'
import { sessionRequestHeaders, unwrap, v1, type V1Data } from '../../api/client'
import { retrySeconds } from '../../api/pacing'
import { messageOf } from '../../api/problem'
import { plural } from '../../ui/format'
import { useToast } from '../../ui/toast'
import { ACCEPTED_FORMATS, type PushAnswer } from '../upload/queue'
import { sendPush } from '../upload/send'

export type AssetVersion = V1Data<'/api/v1/assets/{id}/versions', 'get'>['data'][number]

/** Under ASSETS_KEY: a new version or a restore refreshes the history with the asset. */
export const versionsKey = (id: string) => [ASSETS_KEY, 'versions', id] as const
export const versionsPath = (id: string) => `/api/v1/assets/${encodeURIComponent(id)}/versions`

/** Every version of the asset, newest first (the first is the current one). */
export function useVersions(id: string) {
  return useQuery({
    queryKey: versionsKey(id),
    queryFn: async () => (await unwrap(v1.GET('/api/v1/assets/{id}/versions', { params: { path: { id } } }))).data,
    meta: { quiet: true },
  })
}

/** Makes a copy of `version` the newest; answers the new version's number. */
export async function restoreVersion(id: string, version: number): Promise<number> {
  return (await unwrap(v1.POST('/api/v1/assets/{id}/versions/{version}/restore', { params: { path: { id, version } } }))).version
}

/** What an upload of a new version came to. */
export type VersionOutcome =
  | { kind: 'new'; version: number }
  | { kind: 'duplicate'; version: number }
  /** The bytes are another asset's (409 `content_belongs_to_other_asset`): it is there already. */
  | { kind: 'elsewhere'; assetId: string; detail: string }
  | { kind: 'failed'; detail: string }

const record = (body: unknown): Record<string, unknown> => (typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {})

/** 201 a new version, 200 the current bytes again, 409 another asset's bytes, anything else a failure to show. */
export function versionOutcome(answer: PushAnswer, path: string): VersionOutcome {
  const body = record(answer.body)
  if ((answer.status === 200 || answer.status === 201) && typeof body.version === 'number') {
    return { kind: body.duplicate === true ? 'duplicate' : 'new', version: body.version }
  }
  if (answer.status === 0) return { kind: 'failed', detail: messageOf(new TypeError('Network request failed')) }
  const error = apiErrorOf({ method: 'POST', path, status: answer.status, body: answer.body, retryAfter: answer.retryAfter })
  if (error.code === 'content_belongs_to_other_asset' && typeof body.asset_id === 'string') return { kind: 'elsewhere', assetId: body.asset_id, detail: messageOf(error) }
  if (answer.status === 429) return { kind: 'failed', detail: `Too many uploads for now. Try again in ${plural(retrySeconds(parseRetryAfter(answer.retryAfter)), 'second')}.` }
  const refusedFormat = error instanceof ApiError && (error.code === 'not_an_image' || error.code === 'unsupported_image_format')
  return { kind: 'failed', detail: refusedFormat ? `${messageOf(error)} Accepted formats: ${ACCEPTED_FORMATS}.` : messageOf(error) }
}

export type UploadState = { kind: 'idle' } | { kind: 'sending'; name: string; progress: number } | (VersionOutcome & { name: string })

/**
 * Uploads a file as the asset's next version, one at a time, with its progress; Cancel stops it. A new
 * version refreshes the asset (its URLs carry the version, so the picture changes) and the history.
 * State set after the page was left is dropped by React; the invalidation and the note still happen.
 */
export function useVersionUpload(assetId: string) {
  const [state, setState] = useState<UploadState>({ kind: 'idle' })
  const controller = useRef<AbortController | null>(null)
  const queryClient = useQueryClient()
  const toast = useToast()
  // Leaving the app mid-upload asks first; moving to another screen of it does not stop the upload,
  // whose note comes wherever the user is by then.
  const sending = state.kind === 'sending'
  useEffect(() => {
    if (!sending) return
    const warn = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [sending])

  const upload = useCallback(
    async (file: File) => {
      if (controller.current) return
      const abort = new AbortController()
      controller.current = abort
      setState({ kind: 'sending', name: file.name, progress: 0 })
      const body = new FormData()
      body.append('file', file, file.name)
      const path = versionsPath(assetId)
      const answer = await sendPush({ body, headers: sessionRequestHeaders('POST') }, (progress) => setState({ kind: 'sending', name: file.name, progress }), abort.signal, path)
      controller.current = null
      if (abort.signal.aborted) {
        setState({ kind: 'idle' })
        return
      }
      const outcome = versionOutcome(answer, path)
      if (outcome.kind === 'new') {
        await invalidateAssetData(queryClient)
        toast.success(`Uploaded version ${outcome.version}.`)
        setState({ kind: 'idle' })
        return
      }
      setState({ ...outcome, name: file.name })
    },
    [assetId, queryClient, toast],
  )
  return {
    state,
    upload: (file: File) => void upload(file),
    cancel: () => controller.current?.abort(),
    /** Something dropped that cannot be a version (several files), said in the same place. */
    refuse: (detail: string) => !controller.current && setState({ kind: 'failed', name: '', detail }),
    dismiss: () => setState({ kind: 'idle' }),
  }
}
