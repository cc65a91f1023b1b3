import { useMutation } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import { unwrap, v1 } from '../../api/client'
import { CopyButton } from '../../ui/CopyButton'
import { formatDate } from '../../ui/format'
import { useToast } from '../../ui/toast'
import { useRefreshCollections, type Collection } from './api'
import { useSession } from '../../session'

/**
 * Share and unshare. The public link is shown once, when made (the server keeps only its hash); sharing
 * again makes a new link and retires the old one. The link lives only in this panel's state until
 * "Done": the mutation that fetched it is reset and not kept in the mutation cache.
 */
export function SharePanel({ collection }: { collection: Collection }) {
  const { canManage } = useSession()
  const [link, setLink] = useState<string | null>(null)
  const refresh = useRefreshCollections()
  const toast = useToast()
  const share = useMutation({
    mutationFn: () => unwrap(v1.POST('/api/v1/collections/{id}/share', { params: { path: { id: collection.id } } })),
    gcTime: 0,
    onSuccess: () => refresh(),
  })
  const unshare = useMutation({
    mutationFn: () => unwrap(v1.DELETE('/api/v1/collections/{id}/share', { params: { path: { id: collection.id } } })),
    onSuccess: async () => {
      setLink(null)
      await refresh()
      toast.success('The public link no longer works.')
    },
  })
  const makeLink = () =>
    share.mutate(undefined, {
      onSuccess: (answer) => {
        setLink(answer.share_url)
        share.reset()
      },
    })
  const busy = share.isPending || unshare.isPending

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
          {!canManage ? null : collection.shared ? (
            <>
              {!link && (
                <button type="button" onClick={makeLink} disabled={busy}>
                  Make a new link
                </button>
              )}
              <button type="button" className="danger" onClick={() => unshare.mutate()} disabled={busy}>
                Unshare
              </button>
            </>
          ) : (
            <button type="button" onClick={makeLink} disabled={busy}>
              {share.isPending ? 'Sharing…' : 'Share'}
            </button>
          )}
        </div>
      </div>
      {link && collection.shared ? (
        <ShareLink link={link} onDone={() => setLink(null)} />
      ) : (
        collection.shared && <p className="hint">The link was shown when it was made. Making a new one retires the old link.</p>
      )}
      {!canManage && <p className="hint">Owners and admins share collections publicly.</p>}
    </section>
  )
}

/**
 * The new link, as the other once-shown values are (the settings' keys and secrets): a warning, a
 * read-only field with its label, Copy; here also Open. It takes the focus from the button it replaced.
 */
function ShareLink({ link, onDone }: { link: string; onDone(): void }) {
  const id = useId()
  const field = useRef<HTMLInputElement>(null)
  useEffect(() => field.current?.focus(), [link])
  return (
    <div className="stack share-link">
      <p className="once-warning" role="note">
        <strong>Copy this public link now: it will not be shown again.</strong> Anyone with it sees the collection’s images, read-only.
      </p>
      <div className="secret-box">
        <label htmlFor={id} className="visually-hidden">
          Public link
        </label>
        <input id={id} ref={field} className="secret-value" readOnly value={link} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={link} label="Copy link" />
        <a className="button" href={link} target="_blank" rel="noreferrer noopener">
          Open
        </a>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  )
}
