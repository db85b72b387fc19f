/**
 * TLS material: the operator's PEM files, or a self-signed certificate created in DATA_DIR/tls/
 * on first start and reused after. It names localhost and the machine's LAN addresses (so a
 * phone on the same Wi-Fi can open the panel after accepting it once), and is made again when
 * those addresses change. `selfsigned` defaults to RSA + SHA-1 with
 * no SAN, which browsers and Bun's fetch reject, so every option is spelled out.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs'
import { X509Certificate } from 'node:crypto'
import path from 'node:path'
import selfsigned from 'selfsigned'
import type { Config } from './config'
import { DAY_MS } from './lib/time'
import { lanAddresses } from './lib/lan'

const VALID_DAYS = 825
const RENEW_BEFORE_MS = 30 * DAY_MS

export interface TlsFiles {
  cert: string
  key: string
  certFile: string
  generated: boolean
}

export async function loadTls(config: Config, lan: string[] = lanAddresses()): Promise<TlsFiles> {
  if (config.tlsCertFile && config.tlsKeyFile) {
    return {
      cert: readFileSync(config.tlsCertFile, 'utf8'),
      key: readFileSync(config.tlsKeyFile, 'utf8'),
      certFile: config.tlsCertFile,
      generated: false,
    }
  }
  const dir = path.join(config.dataDir, 'tls')
  const certFile = path.join(dir, 'cert.pem')
  const keyFile = path.join(dir, 'key.pem')
  if (existsSync(certFile) && existsSync(keyFile)) {
    const cert = readFileSync(certFile, 'utf8')
    // Reused until it is about to expire or the LAN addresses changed; then a fresh one replaces
    // it (clients trusting the old PEM must fetch the new one, which beats a service that stops answering).
    const x509 = new X509Certificate(cert)
    const names = x509.subjectAltName ?? ''
    const namesLan = lan.every((ip) => names.includes(`IP Address:${ip}`))
    if (namesLan && x509.validToDate.getTime() - Date.now() > RENEW_BEFORE_MS) {
      return { cert, key: readFileSync(keyFile, 'utf8'), certFile, generated: false }
    }
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    // `days` is not a selfsigned 5.x option (it silently gives 365); 825 days is the longest
    // validity Apple's TLS clients accept for a server certificate.
    notAfterDate: new Date(Date.now() + VALID_DAYS * DAY_MS),
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
          ...lan.map((ip) => ({ type: 7, ip })),
        ],
      },
    ],
  } as never)
  writeFileSync(keyFile, pems.private, { mode: 0o600 })
  chmodSync(keyFile, 0o600)
  writeFileSync(certFile, pems.cert)
  return { cert: pems.cert, key: pems.private, certFile, generated: true }
}
