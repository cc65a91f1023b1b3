import { useMutation } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { useLocation } from 'wouter'
import { unwrap, v1 } from '../../api/client'
import { Dialog } from '../../ui/Dialog'
import { FormError } from '../../ui/FormError'
import { useToast } from '../../ui/toast'
import type { AssetFilterValue } from '../library/filters'
import { useRefreshCollections } from './api'
import { CollectionFields } from './CollectionFields'
import { SmartQueryEditor } from './SmartQueryEditor'

type Kind = 'manual' | 'smart'

/** Name and kind; a smart collection also gets its query, with the live count. Opens the new collection. */
export function NewCollectionDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <Dialog title="New collection" open={open} onClose={onClose}>
      <NewCollectionForm onClose={onClose} />
    </Dialog>
  )
}

function NewCollectionForm({ onClose }: { onClose(): void }) {
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [kind, setKind] = useState<Kind>('manual')
  const [query, setQuery] = useState<AssetFilterValue>({})
  const [, navigate] = useLocation()
  const refresh = useRefreshCollections()
  const toast = useToast()
  const ids = useId()
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        v1.POST('/api/v1/collections', {
          body: kind === 'smart' ? { name: name.trim(), description, kind, query } : { name: name.trim(), description, kind },
        }),
      ),
    onSuccess: async (collection) => {
      await refresh()
      toast.success(`Collection “${collection.name}” created.`)
      onClose()
      navigate(`/collections/${collection.id}`)
    },
    meta: { quiet: true },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    create.mutate()
  }
  return (
    <form className="stack" onSubmit={submit}>
      <CollectionFields name={name} description={description} onName={setName} onDescription={setDescription} />
      <fieldset className="kind-picker">
        <legend>Kind</legend>
        <label className={`kind-option${kind === 'manual' ? ' checked' : ''}`}>
          <input type="radio" name={`${ids}-kind`} checked={kind === 'manual'} onChange={() => setKind('manual')} aria-describedby={`${ids}-manual`} />
          <span>
            <strong>Manual</strong>
            <small id={`${ids}-manual`}>You pick the assets, one by one or from a selection.</small>
          </span>
        </label>
        <label className={`kind-option${kind === 'smart' ? ' checked' : ''}`}>
          <input type="radio" name={`${ids}-kind`} checked={kind === 'smart'} onChange={() => setKind('smart')} aria-describedby={`${ids}-smart`} />
          <span>
            <strong>Smart</strong>
            <small id={`${ids}-smart`}>Filters decide: every asset that matches, now and later.</small>
          </span>
        </label>
      </fieldset>
      {kind === 'smart' && <SmartQueryEditor value={query} onChange={setQuery} />}
      <FormError error={create.error} />
      <div className="row end">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={create.isPending}>
          Create collection
        </button>
      </div>
    </form>
  )
}
