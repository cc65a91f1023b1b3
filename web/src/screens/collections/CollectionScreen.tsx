export function CollectionScreen() {
  return <p>CollectionScreen: being built</p>
}
