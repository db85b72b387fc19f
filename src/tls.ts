/**
 * TLS material: the operator's PEM files, or a self-signed certificate for localhost created
 * in DATA_DIR/tls/ on first start and reused after. `selfsigned` defaults to RSA + SHA-1 with
 * no SAN, which browsers and Bun's fetch reject, so every option is spelled out.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs'
import path from 'node:path'
import selfsigned from 'selfsigned'
import type { Config } from './config'

export interface TlsFiles {
  cert: string
  key: string
  certFile: string
  generated: boolean
}

export async function loadTls(config: Config): Promise<TlsFiles> {
  if (config.tlsCertFile && config.tlsKeyFile) {
    return { cert: readFileSync(config.tlsCertFile, 'utf8'), key: readFileSync(config.tlsKeyFile, 'utf8'), certFile: config.tlsCertFile, generated: false }
  }
  const dir = path.join(config.dataDir, 'tls')
  const certFile = path.join(dir, 'cert.pem')
  const keyFile = path.join(dir, 'key.pem')
  if (existsSync(certFile) && existsSync(keyFile)) {
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile, generated: false }
  }
  mkdirSync(dir, { recursive: true })
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    days: 825,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  } as never)
  writeFileSync(keyFile, pems.private, { mode: 0o600 })
  chmodSync(keyFile, 0o600)
  writeFileSync(certFile, pems.cert)
  return { cert: pems.cert, key: pems.private, certFile, generated: true }
}
