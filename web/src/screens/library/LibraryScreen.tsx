export function LibraryScreen() {
  return <p>LibraryScreen: being built</p>
}
