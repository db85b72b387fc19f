/**
 * The product editor's words for pictures, variant order and concurrent edits (es, en, pt). Kept
 * beside the editor rather than in pages/words/ so each sentence is whole in each language: no
 * page builds a sentence out of translated pieces.
 */
import type { PanelLanguage } from '../../i18n'
import type { Frame } from '../../views'

const en = {
  pictures: 'Pictures',
  picturesHint: (max: number) =>
    `JPEG, PNG or WebP, up to ${max} MB each. The first picture is the one the shop shows first.`,
  picturesOnCreate: 'They are added in this order when you create the product.',
  pickAgain: 'Pick the pictures again: a form that comes back cannot keep the files it sent.',
  noPictures: 'No pictures yet.',
  picture: (n: number, of: number) => `Picture ${n} of ${of}`,
  pictureAlt: (n: number, name: string) => `${name}, picture ${n}`,
  addPictures: 'Add pictures',
  upload: 'Upload pictures',
  dropHere: 'Or drop pictures here.',
  moveEarlier: 'Move earlier',
  moveLater: 'Move later',
  moveEarlierLabel: (n: number) => `Move earlier, picture ${n}`,
  moveLaterLabel: (n: number) => `Move later, picture ${n}`,
  deletePicture: 'Delete',
  deletePictureLabel: (n: number) => `Delete, picture ${n}`,
  deletePictureTitle: (n: number) => `Delete picture ${n}?`,
  deletePictureText: 'The picture leaves the shop at once. This cannot be undone.',
  pictureMoved: (n: number, of: number) => `Picture moved to position ${n} of ${of}.`,
  pictureDeleted: 'Picture deleted.',
  picturesAdded: (n: number) => (n === 1 ? 'Picture added.' : `${n} pictures added.`),
  uploading: (name: string) => `Uploading ${name}`,
  uploaded: 'Uploaded.',
  uploadFailed: 'The upload did not finish. Try again.',
  dragHint: 'Drag a picture to reorder, or use its buttons.',
  // a picture's problem, by the API's answer
  fileRequired: 'Pick at least one picture.',
  notAnImage: 'This file is not a JPEG, PNG or WebP picture.',
  unreadable: 'This file looks like a picture but cannot be read.',
  tooManyPixels: (mp: number) => `This picture has too many pixels; at most ${mp} megapixels are accepted.`,
  tooLarge: (mb: number) => `This file is too large; at most ${mb} MB per picture.`,
  tooMany: (n: number) => `A product has at most ${n} pictures.`,
  busy: 'Other pictures of this store are still uploading. Try again in a moment.',
  fileProblem: (name: string, problem: string) => `${name}: ${problem}`,
  // variants
  moveUp: 'Move up',
  moveDown: 'Move down',
  moveUpLabel: (n: number) => `Move up, variant ${n}`,
  moveDownLabel: (n: number) => `Move down, variant ${n}`,
  // concurrent edits
  changedTitle: 'This product changed since you opened it',
  changedText:
    'Someone saved it in the meantime (perhaps you, in another tab). Your changes below are not saved, so nothing of theirs is lost.',
  reload: 'Open the current version',
}

export type ProductWords = typeof en

const es: ProductWords = {
  pictures: 'Fotos',
  picturesHint: (max) =>
    `JPEG, PNG o WebP, hasta ${max} MB cada una. La primera foto es la que la tienda muestra primero.`,
  picturesOnCreate: 'Se agregan en este orden al crear el producto.',
  pickAgain: 'Vuelve a elegir las fotos: un formulario que vuelve no puede conservar los archivos enviados.',
  noPictures: 'Todavía no hay fotos.',
  picture: (n, of) => `Foto ${n} de ${of}`,
  pictureAlt: (n, name) => `${name}, foto ${n}`,
  addPictures: 'Agregar fotos',
  upload: 'Subir fotos',
  dropHere: 'O suelta las fotos aquí.',
  moveEarlier: 'Mover antes',
  moveLater: 'Mover después',
  moveEarlierLabel: (n) => `Mover antes, foto ${n}`,
  moveLaterLabel: (n) => `Mover después, foto ${n}`,
  deletePicture: 'Eliminar',
  deletePictureLabel: (n) => `Eliminar, foto ${n}`,
  deletePictureTitle: (n) => `¿Eliminar la foto ${n}?`,
  deletePictureText: 'La foto sale de la tienda enseguida. No se puede deshacer.',
  pictureMoved: (n, of) => `Foto movida a la posición ${n} de ${of}.`,
  pictureDeleted: 'Foto eliminada.',
  picturesAdded: (n) => (n === 1 ? 'Foto agregada.' : `${n} fotos agregadas.`),
  uploading: (name) => `Subiendo ${name}`,
  uploaded: 'Subida.',
  uploadFailed: 'La subida no terminó. Vuelve a intentarlo.',
  dragHint: 'Arrastra una foto para cambiar el orden, o usa sus botones.',
  fileRequired: 'Elige al menos una foto.',
  notAnImage: 'Este archivo no es una foto JPEG, PNG o WebP.',
  unreadable: 'Este archivo parece una foto pero no se puede leer.',
  tooManyPixels: (mp) => `Esta foto tiene demasiados píxeles; se aceptan hasta ${mp} megapíxeles.`,
  tooLarge: (mb) => `Este archivo es demasiado grande; hasta ${mb} MB por foto.`,
  tooMany: (n) => `Un producto tiene como máximo ${n} fotos.`,
  busy: 'Todavía se están subiendo otras fotos de esta tienda. Vuelve a intentarlo en un momento.',
  fileProblem: (name, problem) => `${name}: ${problem}`,
  moveUp: 'Subir',
  moveDown: 'Bajar',
  moveUpLabel: (n) => `Subir, variante ${n}`,
  moveDownLabel: (n) => `Bajar, variante ${n}`,
  changedTitle: 'Este producto cambió desde que lo abriste',
  changedText:
    'Alguien lo guardó mientras tanto (quizá tú, en otra pestaña). Tus cambios de abajo no se guardaron, así que no se pierde nada de lo suyo.',
  reload: 'Abrir la versión actual',
}

const pt: ProductWords = {
  pictures: 'Fotos',
  picturesHint: (max) => `JPEG, PNG ou WebP, até ${max} MB cada. A primeira foto é a que a loja mostra primeiro.`,
  picturesOnCreate: 'Elas são adicionadas nesta ordem ao criar o produto.',
  pickAgain: 'Escolha as fotos de novo: um formulário que volta não consegue guardar os arquivos enviados.',
  noPictures: 'Ainda não há fotos.',
  picture: (n, of) => `Foto ${n} de ${of}`,
  pictureAlt: (n, name) => `${name}, foto ${n}`,
  addPictures: 'Adicionar fotos',
  upload: 'Enviar fotos',
  dropHere: 'Ou solte as fotos aqui.',
  moveEarlier: 'Mover para antes',
  moveLater: 'Mover para depois',
  moveEarlierLabel: (n) => `Mover para antes, foto ${n}`,
  moveLaterLabel: (n) => `Mover para depois, foto ${n}`,
  deletePicture: 'Excluir',
  deletePictureLabel: (n) => `Excluir, foto ${n}`,
  deletePictureTitle: (n) => `Excluir a foto ${n}?`,
  deletePictureText: 'A foto sai da loja na hora. Isso não pode ser desfeito.',
  pictureMoved: (n, of) => `Foto movida para a posição ${n} de ${of}.`,
  pictureDeleted: 'Foto excluída.',
  picturesAdded: (n) => (n === 1 ? 'Foto adicionada.' : `${n} fotos adicionadas.`),
  uploading: (name) => `Enviando ${name}`,
  uploaded: 'Enviada.',
  uploadFailed: 'O envio não terminou. Tente de novo.',
  dragHint: 'Arraste uma foto para mudar a ordem, ou use os botões dela.',
  fileRequired: 'Escolha pelo menos uma foto.',
  notAnImage: 'Este arquivo não é uma foto JPEG, PNG ou WebP.',
  unreadable: 'Este arquivo parece uma foto, mas não pode ser lido.',
  tooManyPixels: (mp) => `Esta foto tem pixels demais; são aceitos até ${mp} megapixels.`,
  tooLarge: (mb) => `Este arquivo é grande demais; até ${mb} MB por foto.`,
  tooMany: (n) => `Um produto tem no máximo ${n} fotos.`,
  busy: 'Outras fotos desta loja ainda estão sendo enviadas. Tente de novo em instantes.',
  fileProblem: (name, problem) => `${name}: ${problem}`,
  moveUp: 'Subir',
  moveDown: 'Descer',
  moveUpLabel: (n) => `Subir, variante ${n}`,
  moveDownLabel: (n) => `Descer, variante ${n}`,
  changedTitle: 'Este produto mudou desde que você o abriu',
  changedText:
    'Alguém o salvou nesse meio-tempo (talvez você, em outra aba). Suas alterações abaixo não foram salvas, então nada do que a outra pessoa fez se perde.',
  reload: 'Abrir a versão atual',
}

const WORDS: Record<PanelLanguage, ProductWords> = { en, es, pt }
export const pw = (f: Frame | { lang: PanelLanguage }): ProductWords => WORDS[f.lang]
