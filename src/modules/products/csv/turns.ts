/**
 * A turn of the event loop between two slices of a long piece of work (reading or checking a CSV
 * file): requests that arrived meanwhile — another store's page, a checkout — are answered before
 * the next slice, so one import never holds up the process.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
