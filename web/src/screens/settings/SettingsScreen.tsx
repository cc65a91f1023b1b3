export function SettingsScreen() {
  return <p>SettingsScreen: being built</p>
}
