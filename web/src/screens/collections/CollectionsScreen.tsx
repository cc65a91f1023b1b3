export function CollectionsScreen() {
  return <p>CollectionsScreen: being built</p>
}
