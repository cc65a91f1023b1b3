import { useMutation } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import { unwrap, v1 } from '../../api/client'
import { CopyButton } from '../../ui/CopyButton'
import { ConfirmDialog } from '../../ui/Dialog'
import { FormError } from '../../ui/FormError'
import { formatDate } from '../../ui/format'
import { RefusedButton } from '../../ui/RefusedButton'
import { useToast } from '../../ui/toast'
import { useLiveShareLink, useRefreshCollections, type Collection } from './api'
import { useSession } from '../../session'

export const SHARE_REFUSED = 'Only owners and admins can share a collection publicly.'

/**
 * Share and unshare. Owners and admins see the live public link again whenever they come back (the server
 * keeps it encrypted), except a link made before it kept them: that one says to make a new link. "Make a
 * new link" asks first, since the old one stops working. Members see whether it is shared, never the link.
 */
export function SharePanel({ collection }: { collection: Collection }) {
  const { canManage } = useSession()
  const live = useLiveShareLink(collection.id, canManage && collection.shared)
  const [replacing, setReplacing] = useState(false)
  const [fresh, setFresh] = useState(false)
  const refresh = useRefreshCollections()
  const toast = useToast()
  const share = useMutation({
    mutationFn: () => unwrap(v1.POST('/api/v1/collections/{id}/share', { params: { path: { id: collection.id } } })),
    gcTime: 0,
    meta: { quiet: true },
    onSuccess: async () => {
      await refresh()
      setReplacing(false)
      setFresh(true)
    },
  })
  const unshare = useMutation({
    mutationFn: () => unwrap(v1.DELETE('/api/v1/collections/{id}/share', { params: { path: { id: collection.id } } })),
    onSuccess: async () => {
      await refresh()
      toast.success('The public link no longer works.')
    },
  })
  const busy = share.isPending || unshare.isPending
  const link = collection.shared ? live.data?.share_url : undefined

  return (
    <section className="panel share-panel" aria-labelledby="share-heading">
      <div className="row">
        <h2 id="share-heading">Sharing</h2>
        {collection.shared ? (
          <span className="shared-mark">Shared {collection.shared_at ? `since ${formatDate(collection.shared_at)}` : ''}</span>
        ) : (
          <span className="muted">Private: only members of the organization see it.</span>
        )}
        <div className="share-actions">
          {!canManage ? (
            !collection.shared && <RefusedButton label="Share" reason={SHARE_REFUSED} />
          ) : collection.shared ? (
            <>
              <button type="button" onClick={() => setReplacing(true)} disabled={busy}>
                Make a new link
              </button>
              <button type="button" className="danger" onClick={() => unshare.mutate()} disabled={busy}>
                Unshare
              </button>
            </>
          ) : (
            <button type="button" onClick={() => share.mutate()} disabled={busy}>
              {share.isPending ? 'Sharing…' : 'Share'}
            </button>
          )}
        </div>
      </div>
      {!replacing && <FormError error={share.error} />}
      {canManage && collection.shared && (
        live.isPending ? (
          <p className="hint">Loading the link…</p>
        ) : link ? (
          <ShareLink link={link} focus={fresh} />
        ) : (
          live.isSuccess && <p className="hint">This link was made before links were kept, so it cannot be shown again. Make a new link to see it here.</p>
        )
      )}
      {!canManage && collection.shared && <p className="hint">Owners and admins can see and copy the public link.</p>}
      <ConfirmDialog
        title="Make a new link?"
        open={replacing}
        confirmLabel="Make a new link"
        busy={share.isPending}
        onClose={() => setReplacing(false)}
        onConfirm={() => share.mutate()}
      >
        <p>The current link stops working at once: anyone who has it will need the new one.</p>
        <FormError error={share.error} />
      </ConfirmDialog>
    </section>
  )
}

/** The live link: a read-only field with its label, Copy and Open. A link just made takes the focus. */
export function ShareLink({ link, focus = false, label = 'Public link' }: { link: string; focus?: boolean; label?: string }) {
  const id = useId()
  const field = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (focus) field.current?.focus()
  }, [link, focus])
  return (
    <div className="stack share-link">
      <p className="hint">Anyone with this link sees the collection’s images, read-only, until it is unshared or replaced.</p>
      <div className="secret-box">
        <label htmlFor={id} className="visually-hidden">
          {label}
        </label>
        <input id={id} ref={field} className="secret-value" readOnly value={link} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={link} label="Copy link" />
        <a className="button" href={link} target="_blank" rel="noreferrer noopener">
          Open
        </a>
      </div>
    </div>
  )
}
