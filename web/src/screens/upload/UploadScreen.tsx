export function UploadScreen() {
  return <p>UploadScreen: being built</p>
}
