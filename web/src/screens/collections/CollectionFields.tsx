/** A collection's name and description, as New collection and Rename ask for them. The name takes the focus. */
export function CollectionFields(props: { name: string; description: string; onName(next: string): void; onDescription(next: string): void }) {
  return (
    <>
      <label className="field">
        <span>Name</span>
        <input value={props.name} onChange={(e) => props.onName(e.target.value)} required maxLength={200} data-autofocus />
      </label>
      <label className="field">
        <span>Description</span>
        <input value={props.description} onChange={(e) => props.onDescription(e.target.value)} maxLength={2000} placeholder="Optional" />
      </label>
    </>
  )
}
