/** Bulk edit and the CSV import and export (Portuguese). */
import type { Words } from '../shape'

const fmt = (n: number) => n.toLocaleString('pt-BR')

export const bulk: Words['bulk'] = {
  bulkEdit: 'Edição em massa',
  exportCsv: 'Exportar CSV',
  importCsv: 'Importar CSV',
  bulkIntro:
    'Altere preços e estoque de muitos produtos de uma vez. Salvar aplica todas as células alteradas juntas, ou ' +
    'nenhuma se alguma for recusada.',
  bulkBound: (n) => `${n} produtos por página; produtos com variantes têm uma linha por variante.`,
  stockEmpty: 'Um estoque vazio significa que ele não é controlado.',
  gridCaption: 'Preços e estoque',
  priceOf: (row) => `Preço de ${row}`,
  stockOf: (row) => `Estoque de ${row}`,
  saveChanges: 'Salvar alterações',
  bulkSaved: (n) => (n === 1 ? 'Alterações de 1 produto salvas.' : `Alterações de ${fmt(n)} produtos salvas.`),
  nothingChanged: 'Nada foi alterado.',
  rowsRefused: (n) =>
    n === 1 ? '1 linha precisa de atenção; nada foi salvo.' : `${fmt(n)} linhas precisam de atenção; nada foi salvo.`,
  noRows: 'Ainda não há produtos.',
  importTitle: 'Importar produtos de um CSV',
  importIntro:
    'As linhas são associadas aos produtos pelo slug: um slug conhecido atualiza esse produto e um novo cria um ' +
    'produto. Você verá o que mudaria antes de qualquer coisa ser salva.',
  columnsAre: (cols, currency) =>
    `A primeira linha nomeia as colunas: ${cols}. Uma linha por variante; um produto sem variantes tem uma linha. ` +
    `Os preços são em ${currency}; um estoque vazio não é controlado.`,
  importLimits: (rows, mb) => `No máximo ${rows} linhas e ${mb} MB por arquivo.`,
  exportHint: 'A exportação tem as mesmas colunas: baixe, edite numa planilha e importe de novo.',
  file: 'Arquivo CSV',
  checkFile: 'Verificar o arquivo',
  chooseFile: 'Escolha um arquivo CSV.',
  dryRunTitle: 'Verificar antes de importar',
  fileName: (name, rows) => `${name}: ${fmt(rows)} linhas.`,
  toCreate: (n) => (n === 1 ? '1 produto a criar' : `${fmt(n)} produtos a criar`),
  toUpdate: (n) => (n === 1 ? '1 produto a atualizar' : `${fmt(n)} produtos a atualizar`),
  unchanged: (n) => (n === 1 ? '1 produto sem alterações' : `${fmt(n)} produtos sem alterações`),
  refused: (n) => (n === 1 ? '1 linha recusada' : `${fmt(n)} linhas recusadas`),
  lineOf: (line) => `linha ${line}`,
  changes: (cols) => `altera ${cols}`,
  lineProblem: (line, column, message) =>
    column ? `Linha ${line}, coluna ${column}: ${message}` : `Linha ${line}: ${message}`,
  andMore: (n) => `…e mais ${fmt(n)}.`,
  fixAndRetry: 'Nada será importado enquanto houver uma linha recusada. Corrija o arquivo e verifique de novo.',
  applyImport: 'Aplicar a importação',
  applyHint: 'Todas as linhas são aplicadas juntas, ou nenhuma.',
  anotherFile: 'Verificar outro arquivo',
  imported: (created, updated) => `Importado: ${fmt(created)} criados, ${fmt(updated)} atualizados.`,
  nothingToImport: 'Nada a alterar: o arquivo corresponde ao catálogo.',
  expired: 'Esta verificação expirou ou foi substituída por uma mais nova. Envie o arquivo de novo.',
  fileHeader: (cols) => `A primeira linha deve nomear exatamente estas colunas: ${cols}.`,
  fileRows: (n) => `O arquivo tem mais de ${n} linhas. Divida-o em arquivos menores.`,
  fileBytes: (mb) => `O arquivo tem mais de ${mb} MB. Divida-o em arquivos menores.`,
  fileMalformed: (line) =>
    line
      ? `O arquivo não é um CSV válido perto da linha ${line} (verifique as aspas).`
      : 'O arquivo não é um CSV válido (verifique as aspas).',
  conflicts: (line) => `A linha ${line} tem o mesmo slug com outros dados do produto.`,
  variantTwice: (line) => `Esta variante já está na linha ${line}.`,
  mixedRows: (line) => `A linha ${line} tem o mesmo slug; um produto sem variantes tem uma única linha.`,
  wrongWidth: 'Esta linha não tem uma célula por coluna.',
  categoryUnknown: 'Nenhuma categoria desta loja tem este nome ou slug.',
  categoryAmbiguous: 'Várias categorias têm este nome: use o slug da categoria.',
  categoryNamed: (name: string) =>
    `Não há nenhuma categoria chamada “${name}”. Use o nome ou o slug de uma categoria, ou deixe vazio.`,
  expectWhole: 'Digite um número inteiro de 0 ou mais.',
  expectPrice: 'Digite um preço de 0 ou mais.',
  expectDecimals: (digits: number, currency: string) =>
    digits === 0
      ? `Digite um preço de 0 ou mais sem casas decimais (${currency}).`
      : `Digite um preço de 0 ou mais com no máximo ${digits} casas decimais (${currency}).`,
  expectBoolean: 'Digite true ou false (sim/não, yes/no, sí/no e 1/0 também servem).',
  fileEncoding: (line: number) =>
    `A linha ${line} não está em UTF-8. Salve o arquivo como “CSV UTF-8” e confira de novo.`,
  fileNul: (line: number) =>
    `A linha ${line} contém um byte NUL, que um arquivo CSV não pode conter. Salve-o de novo como “CSV UTF-8”.`,
  fileLong: (line: number) =>
    `A linha ${line} tem mais de 64 KB. Uma aspa não fechada transforma o resto do arquivo em uma célula: confira ` +
    `as aspas.`,
  busy: 'Já há uma importação desta loja em andamento. Tente de novo em alguns segundos.',
  emptyValue: '(vazio)',
}
