/** The Team page: members, roles, invitations, reset links (Portuguese). */
import type { Words } from '../shape'

export const team: Words['team'] = {
  resetLink: 'Link de redefinição',
  makeResetLink: (who) => `Criar um link de redefinição para ${who}`,
  resetConfirmTitle: (who) => `Criar um link de redefinição para ${who}?`,
  resetConfirmText:
    'A senha da pessoa para de funcionar na hora e ela sai de todos os dispositivos. Até usar o link, só entra ' +
    'por ele.',
  confirmReset: 'Sim, criar o link',
  resetReady: 'Link de redefinição pronto',
  resetLinkIntro: (email) =>
    `Envie este link de uso único para ${email}. Funciona uma vez, por 72 horas, e deixa a pessoa escolher uma ` +
    `senha nova.`,
  resetNotYours: 'Esta pessoa também trabalha numa loja que não é sua: o operador do servidor cria o link dela.',
  role: 'Papel',
  roles: { owner: 'Dono', staff: 'Equipe', viewer: 'Leitor' },
  changeRole: 'Trocar papel',
  changeRoleOf: (w) => `Papel de ${w}`,
  removeMember: (w) => `Remover ${w}`,
  removeConfirmTitle: (w) => `Remover ${w} da equipe?`,
  removeConfirmText:
    'A pessoa perde o acesso a esta loja na hora e sai da sessão dela. A atividade passada continua no registro.',
  confirmRemove: 'Sim, remover',
  lastSignIn: 'Último acesso',
  invite: 'Convidar',
  invitePerson: 'Convidar uma pessoa',
  nameOptional: 'Nome (opcional)',
  pendingInvitations: 'Convites pendentes',
  revoke: 'Retirar',
  revokeInvitation: (e) => `Retirar o convite de ${e}`,
  inviteReady: 'Convite pronto',
  inviteLinkIntro: (e) => `Envie este link de uso único para ${e}. Funciona uma vez, por 72 horas.`,
  inviteLink: 'Link do convite',
  copyLink: 'Copiar link',
  shareWhatsapp: 'Compartilhar no WhatsApp',
  whatsappInvite: (s, u) => `Você foi convidado para o painel de ${s}: ${u}`,
  lastOwner: 'Uma loja mantém pelo menos um dono. Torne outra pessoa dona primeiro.',
  alreadyMember: 'Esta pessoa já está na equipe.',
}
