import { useState } from 'react'
import { useSession } from '../../session'
import { BatchPanel, initialMetadata } from './BatchPanel'
import { Dropzone, ImportForm } from './Dropzone'
import { filesDeclaringAi } from './declaredOrigin'
import type { BatchMetadata } from './queue'
import { UploadResults } from './UploadResults'
import { useUploads } from './uploadStore'
import './upload.css'

export function UploadScreen() {
  const { user } = useSession()
  const [meta, setMeta] = useState<BatchMetadata>(initialMetadata)
  const queue = useUploads(user.id)
  return (
    <div className="upload-page">
      <header className="page-header">
        <h1>Upload</h1>
        <p className="muted upload-lede">Drop images or pick them; each gets the details set for the batch, and its file name (without the extension) as its title.</p>
      </header>
      {/* The picker and the results come first: on a narrow screen the batch form follows them, folded. */}
      <div className="upload-layout">
        <div className="stack upload-main">
          <Dropzone onFiles={(files) => void filesDeclaringAi(files).then((declaringAi) => queue.addFiles(files, meta, declaringAi))} />
          <ImportForm onUrl={(url) => queue.addUrl(url, meta)} />
          <UploadResults items={queue.items} onCancel={queue.cancel} onClearFinished={queue.clearFinished} />
        </div>
        <BatchPanel meta={meta} onChange={setMeta} />
      </div>
    </div>
  )
}
