/**
 * The validation mapper lives in lib (modules check assembled
 * bodies with it too); adapters keep importing it from here.
 */
export * from '../lib/check-body'
