import { Link } from 'wouter'
import { CopyButton } from '../../ui/CopyButton'
import { EmptyState } from '../../ui/EmptyState'

/** The curl command that pushes a first asset to this very server. */
function curlExample(origin: string): string {
  return `curl -X POST ${origin}/api/v1/assets \\\n  -H "Authorization: Bearer <your key>" \\\n  -F file=@logo.png -F title=Logo -F tag_names=brand`
}

/** A new library: upload from the browser first; pushing from a script, with its curl command, below. */
export function LibraryEmpty() {
  const command = curlExample(location.origin)
  return (
    <div className="library-empty">
      <EmptyState title="Your library is empty">
        <p>Add your first images from this browser.</p>
        <div className="row">
          <Link href="/upload" className="button primary">
            Upload images
          </Link>
        </div>
        <h3>Or push them from a script</h3>
        <p>A script or a design tool pushes images with an API key:</p>
        <ol>
          <li>
            Create a key with the <code>assets:write</code> scope in <Link href="/settings/keys">Settings → API keys</Link>.
          </li>
          <li>Push an image:</li>
        </ol>
        <pre className="code" aria-label="Push an image with curl">
          {command}
        </pre>
        <div className="row">
          <CopyButton text={command} label="Copy command" />
          <a href="/api/v1/docs" className="button">
            API reference
          </a>
        </div>
      </EmptyState>
    </div>
  )
}

/** Filters or a search that match nothing. */
export function NoMatches({ search, onClear }: { search: string; onClear(): void }) {
  return (
    <EmptyState title="No matches">
      <p>{search ? `Nothing matches “${search}” with these filters.` : 'No asset matches these filters.'}</p>
      <button type="button" onClick={onClear}>
        Clear filters
      </button>
    </EmptyState>
  )
}
