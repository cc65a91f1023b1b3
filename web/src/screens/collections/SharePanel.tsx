import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { unwrap, v1 } from '../../api/client'
import { CopyButton } from '../../ui/CopyButton'
import { formatDate } from '../../ui/format'
import { useToast } from '../../ui/toast'
import { useRefreshCollections, type Collection } from './api'

/**
 * Share and unshare. The public link is shown once, when made (the server keeps only its hash); sharing
 * again makes a new link and retires the old one.
 */
export function SharePanel({ collection }: { collection: Collection }) {
  const [link, setLink] = useState<string | null>(null)
  const refresh = useRefreshCollections()
  const toast = useToast()
  const share = useMutation({
    mutationFn: () => unwrap(v1.POST('/api/v1/collections/{id}/share', { params: { path: { id: collection.id } } })),
    onSuccess: async (answer) => {
      setLink(answer.share_url)
      await refresh()
    },
  })
  const unshare = useMutation({
    mutationFn: () => unwrap(v1.DELETE('/api/v1/collections/{id}/share', { params: { path: { id: collection.id } } })),
    onSuccess: async () => {
      setLink(null)
      await refresh()
      toast.success('The public link no longer works.')
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
          {collection.shared ? (
            <>
              {!link && (
                <button type="button" onClick={() => share.mutate()} disabled={busy}>
                  Make a new link
                </button>
              )}
              <button type="button" className="danger" onClick={() => unshare.mutate()} disabled={busy}>
                Unshare
              </button>
            </>
          ) : (
            <button type="button" onClick={() => share.mutate()} disabled={busy}>
              Share
            </button>
          )}
        </div>
      </div>
      {link && collection.shared && (
        <div className="stack share-link">
          <div className="secret-box">
            <code aria-label="Public link">{link}</code>
            <CopyButton text={link} label="Copy link" />
            <a className="button" href={link} target="_blank" rel="noreferrer noopener">
              Open
            </a>
          </div>
          <p className="hint">Anyone with this link sees the collection’s images, read-only. Copy it now: it is shown only once.</p>
        </div>
      )}
      {collection.shared && !link && (
        <p className="hint">The link was shown when it was made. Making a new one retires the old link.</p>
      )}
    </section>
  )
}
