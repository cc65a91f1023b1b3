export function AcceptInvitationScreen() {
  return <p>AcceptInvitationScreen: being built</p>
}
