/** The Team page: members, roles, invitations, reset links (English). */
export const team = {
  resetLink: 'Reset link',
  makeResetLink: (who: string) => `Make a reset link for ${who}`,
  resetConfirmTitle: (who: string) => `Make a reset link for ${who}?`,
  resetConfirmText:
    'Their password stops working at once and they are signed out everywhere. Until they use the link, they can ' +
    'sign in only through it.',
  confirmReset: 'Yes, make the link',
  resetReady: 'Reset link ready',
  resetLinkIntro: (email: string) =>
    `Send this one-time link to ${email}. It works once, for 72 hours, and lets them choose a new password.`,
  resetNotYours: 'This person also works in a store you do not own: the server operator makes their reset link.',
  role: 'Role',
  roles: { owner: 'Owner', staff: 'Staff', viewer: 'Viewer' } as Record<string, string>,
  changeRole: 'Change role',
  changeRoleOf: (who: string) => `Role of ${who}`,
  removeMember: (who: string) => `Remove ${who}`,
  removeConfirmTitle: (who: string) => `Remove ${who} from the team?`,
  removeConfirmText:
    'They lose access to this store at once and are signed out of it. Their past activity stays in the log.',
  confirmRemove: 'Yes, remove',
  lastSignIn: 'Last sign-in',
  invite: 'Invite',
  invitePerson: 'Invite a person',
  nameOptional: 'Name (optional)',
  pendingInvitations: 'Pending invitations',
  revoke: 'Withdraw',
  revokeInvitation: (email: string) => `Withdraw invitation for ${email}`,
  inviteReady: 'Invitation ready',
  inviteLinkIntro: (email: string) => `Send this one-time link to ${email}. It works once, for 72 hours.`,
  inviteLink: 'Invitation link',
  copyLink: 'Copy link',
  shareWhatsapp: 'Share on WhatsApp',
  whatsappInvite: (store: string, url: string) => `You're invited to ${store}'s seller panel: ${url}`,
  lastOwner: 'A store keeps at least one owner. Make someone else an owner first.',
  alreadyMember: 'This person is already in the team.',
}
