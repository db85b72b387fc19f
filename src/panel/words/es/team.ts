/** The Team page: members, roles, invitations, reset links (Spanish). */
import type { Words } from '../shape'

export const team: Words['team'] = {
  resetLink: 'Enlace de restablecimiento',
  makeResetLink: (who) => `Crear un enlace de restablecimiento para ${who}`,
  resetConfirmTitle: (who) => `¿Crear un enlace de restablecimiento para ${who}?`,
  resetConfirmText:
    'Su contraseña deja de funcionar al instante y se cierra su sesión en todas partes. Hasta que use el enlace, ' +
    'solo puede entrar con él.',
  confirmReset: 'Sí, crear el enlace',
  resetReady: 'Enlace de restablecimiento listo',
  resetLinkIntro: (email) =>
    `Envía este enlace de un solo uso a ${email}. Funciona una vez, durante 72 horas, y le deja elegir una ` +
    `contraseña nueva.`,
  resetNotYours: 'Esta persona también trabaja en una tienda que no es tuya: el operador del servidor crea su enlace.',
  role: 'Rol',
  roles: { owner: 'Dueño', staff: 'Personal', viewer: 'Lector' },
  changeRole: 'Cambiar rol',
  changeRoleOf: (w) => `Rol de ${w}`,
  removeMember: (w) => `Quitar a ${w}`,
  removeConfirmTitle: (w) => `¿Quitar a ${w} del equipo?`,
  removeConfirmText:
    'Pierde el acceso a esta tienda al instante y se cierra su sesión en ella. Su actividad pasada queda en el ' +
    'registro.',
  confirmRemove: 'Sí, quitar',
  lastSignIn: 'Último acceso',
  invite: 'Invitar',
  invitePerson: 'Invitar a una persona',
  nameOptional: 'Nombre (opcional)',
  pendingInvitations: 'Invitaciones pendientes',
  revoke: 'Retirar',
  revokeInvitation: (e) => `Retirar la invitación de ${e}`,
  inviteReady: 'Invitación lista',
  inviteLinkIntro: (e) => `Envía este enlace de un solo uso a ${e}. Funciona una vez, durante 72 horas.`,
  inviteLink: 'Enlace de invitación',
  copyLink: 'Copiar enlace',
  shareWhatsapp: 'Compartir por WhatsApp',
  whatsappInvite: (s, u) => `Te invitaron al panel de ${s}: ${u}`,
  lastOwner: 'Una tienda conserva al menos un dueño. Haz dueño a otra persona primero.',
  alreadyMember: 'Esta persona ya está en el equipo.',
}
