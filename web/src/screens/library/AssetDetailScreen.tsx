export function AssetDetailScreen() {
  return <p>AssetDetailScreen: being built</p>
}
