/** Bulk edit and the CSV import and export (Spanish). */
import type { Words } from '../shape'

const fmt = (n: number) => n.toLocaleString('es')

export const bulk: Words['bulk'] = {
  bulkEdit: 'Edición masiva',
  exportCsv: 'Exportar CSV',
  importCsv: 'Importar CSV',
  bulkIntro:
    'Cambia precios y stock de muchos productos a la vez. Al guardar se aplican todas las celdas cambiadas ' +
    'juntas, o ninguna si se rechaza alguna.',
  bulkBound: (n) => `${n} productos por página; los productos con variantes tienen una fila por variante.`,
  stockEmpty: 'Un stock vacío significa que no se controla.',
  gridCaption: 'Precios y stock',
  priceOf: (row) => `Precio de ${row}`,
  stockOf: (row) => `Stock de ${row}`,
  saveChanges: 'Guardar cambios',
  bulkSaved: (n) =>
    n === 1 ? 'Se guardaron los cambios de 1 producto.' : `Se guardaron los cambios de ${fmt(n)} productos.`,
  nothingChanged: 'No se cambió nada.',
  rowsRefused: (n) =>
    n === 1 ? '1 fila necesita atención; no se guardó nada.' : `${fmt(n)} filas necesitan atención; no se guardó nada.`,
  noRows: 'Todavía no hay productos.',
  importTitle: 'Importar productos desde CSV',
  importIntro:
    'Las filas se asocian a productos por su slug: un slug conocido actualiza ese producto y uno nuevo crea un ' +
    'producto. Verás qué cambiaría antes de guardar nada.',
  columnsAre: (cols, currency) =>
    `La primera línea nombra las columnas: ${cols}. Una línea por variante; un producto sin variantes tiene una ` +
    `línea. Los precios van en ${currency}; un stock vacío no se controla.`,
  importLimits: (rows, mb) => `Como máximo ${rows} filas y ${mb} MB por archivo.`,
  exportHint:
    'La exportación tiene las mismas columnas: descárgala, edítala en una hoja de cálculo e impórtala de nuevo.',
  file: 'Archivo CSV',
  checkFile: 'Revisar el archivo',
  chooseFile: 'Elige un archivo CSV.',
  dryRunTitle: 'Revisar antes de importar',
  fileName: (name, rows) => `${name}: ${fmt(rows)} filas.`,
  toCreate: (n) => (n === 1 ? '1 producto por crear' : `${fmt(n)} productos por crear`),
  toUpdate: (n) => (n === 1 ? '1 producto por actualizar' : `${fmt(n)} productos por actualizar`),
  unchanged: (n) => (n === 1 ? '1 producto sin cambios' : `${fmt(n)} productos sin cambios`),
  refused: (n) => (n === 1 ? '1 línea rechazada' : `${fmt(n)} líneas rechazadas`),
  lineOf: (line) => `línea ${line}`,
  changes: (cols) => `cambia ${cols}`,
  lineProblem: (line, column, message) =>
    column ? `Línea ${line}, columna ${column}: ${message}` : `Línea ${line}: ${message}`,
  andMore: (n) => `…y ${fmt(n)} más.`,
  fixAndRetry: 'No se importará nada mientras haya una línea rechazada. Corrige el archivo y revísalo de nuevo.',
  applyImport: 'Aplicar la importación',
  applyHint: 'Todas las líneas se aplican juntas, o ninguna.',
  anotherFile: 'Revisar otro archivo',
  imported: (created, updated) => `Importado: ${fmt(created)} creados, ${fmt(updated)} actualizados.`,
  nothingToImport: 'Nada que cambiar: el archivo coincide con el catálogo.',
  expired: 'Esta revisión caducó o fue reemplazada por otra más nueva. Sube el archivo de nuevo.',
  fileHeader: (cols) => `La primera línea debe nombrar exactamente estas columnas: ${cols}.`,
  fileRows: (n) => `El archivo tiene más de ${n} filas. Divídelo en archivos más pequeños.`,
  fileBytes: (mb) => `El archivo pesa más de ${mb} MB. Divídelo en archivos más pequeños.`,
  fileMalformed: (line) =>
    line
      ? `El archivo no es un CSV válido cerca de la línea ${line} (revisa sus comillas).`
      : 'El archivo no es un CSV válido (revisa sus comillas).',
  conflicts: (line) => `La línea ${line} tiene el mismo slug con otros datos del producto.`,
  variantTwice: (line) => `Esta variante ya está en la línea ${line}.`,
  mixedRows: (line) => `La línea ${line} tiene el mismo slug; un producto sin variantes tiene una sola línea.`,
  wrongWidth: 'Esta línea no tiene una celda por columna.',
  categoryUnknown: 'Ninguna categoría de esta tienda tiene este nombre o slug.',
  categoryAmbiguous: 'Varias categorías tienen este nombre: usa el slug de la categoría.',
  categoryNamed: (name: string) =>
    `No hay ninguna categoría llamada «${name}». Usa el nombre o el slug de una categoría, o déjalo vacío.`,
  expectWhole: 'Escribe un número entero de 0 o más.',
  expectPrice: 'Escribe un precio de 0 o más.',
  expectDecimals: (digits: number, currency: string) =>
    digits === 0
      ? `Escribe un precio de 0 o más sin decimales (${currency}).`
      : `Escribe un precio de 0 o más con ${digits} decimales como máximo (${currency}).`,
  expectBoolean: 'Escribe true o false (también valen sí/no, yes/no, sim/não y 1/0).',
  fileEncoding: (line: number) =>
    `La línea ${line} no está en UTF-8. Guarda el archivo como «CSV UTF-8» y revísalo otra vez.`,
  fileNul: (line: number) =>
    `La línea ${line} contiene un byte NUL, que un archivo CSV no puede contener. Guárdalo otra vez como «CSV UTF-8».`,
  fileLong: (line: number) =>
    `La línea ${line} ocupa más de 64 KB. Una comilla sin cerrar convierte el resto del archivo en una celda: ` +
    `revisa sus comillas.`,
  busy: 'Ya hay una importación de esta tienda en curso. Vuelve a intentarlo en unos segundos.',
  emptyValue: '(vacío)',
}
