/** The Categories page (Portuguese). */
import type { Words } from '../shape'

export const categories: Words['categories'] = {
  intro: 'A loja mostra as categorias nesta ordem.',
  none: 'Ainda não há categorias.',
  add: 'Adicionar categoria',
  name: 'Nome da categoria',
  inactive: 'Oculta',
  rename: 'Renomear',
  renameOf: (n) => `Renomear ${n}`,
  editTitle: (n) => `Editar ${n}`,
  moveUpOf: (n) => `Subir: ${n}`,
  moveDownOf: (n) => `Descer: ${n}`,
  removeOf: (n) => `Excluir ${n}`,
  removeTitle: (n) => `Excluir a categoria ${n}?`,
  removeText: 'Os produtos dela continuam na loja, sem categoria.',
  slugTaken: 'Outra categoria já tem este nome no endereço. Escolha outro nome.',
  back: 'Voltar às categorias',
  readOnly: 'Seu papel pode ver as categorias, mas não alterá-las.',
  done: { deleted: 'Categoria excluída.', moved: 'Ordem salva.' },
}
